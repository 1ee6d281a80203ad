"""The phrase patterns the selector's features count (:mod:`chemref.questions.funnel.selector_features`): cues of
attribution, background, pointers and routine work in the excerpt, and of reviews, resources and findings in the
cited title. Patterns compiled with ``re.IGNORECASE`` are also run case-free on the lower-cased text."""

from __future__ import annotations

import re

__all__ = ["ATTRIBUTION", "FIRST", "BACKGROUND", "POINTER", "ROUTINE", "COMPARISON", "OWN", "PASSING", "SEE", "LIST",
           "LIST_WORDS", "DANGLING", "LEFTOVER", "AUTHOR", "HEDGE", "TITLE_REVIEW", "TITLE_RESOURCE", "REFERRING",
           "SPECIFIC_TOKEN", "SPECIFIC_TOKEN_TEST", "SPECIFIC_MARK", "DIGIT", "LETTER", "REVIEW_VENUE", "SECTION_KINDS",
           "DEMONSTRATIVE", "PASSIVE_ATTRIBUTION", "STUDY_SUBJECT", "PAST", "TITLE_FINDING", "CONTENT_WORD",
           "TITLE_STOP"]

_I = re.IGNORECASE
ATTRIBUTION = re.compile(
    r"\b(?:show(?:s|ed|n)|demonstrat(?:es|ed)|report(?:s|ed)|identif(?:ies|ied)|reveal(?:s|ed)|found|"
    r"discover(?:s|ed)|establish(?:es|ed)|observ(?:es|ed)|describ(?:es|ed)|propos(?:es|ed)|suggest(?:s|ed)|"
    r"characteri[sz](?:es|ed)|determin(?:es|ed)|solv(?:es|ed)|isolat(?:es|ed)|synthesi[sz](?:es|ed)|"
    r"develop(?:s|ed)|introduc(?:es|ed))\s+(?:that|by|in|a|an|the|how|its|their)\b|"
    r"\b(?:stud(?:y|ies)|work|group|authors|report|analysis|investigation|experiments?|trial|screen|survey)\s+"
    r"(?:has\s+|have\s+|had\s+)?(?:also\s+|recently\s+|previously\s+)?(?:show|demonstrat|report|identif|reveal|"
    r"found|discover|establish|observ|describ|propos|suggest|confirm|indicat)", _I)
FIRST = re.compile(r"\b(?:first(?:ly)?\s+(?:described|reported|identified|discovered|isolated|synthesi[sz]ed|"
                    r"proposed|introduced|shown|demonstrated|characteri[sz]ed|observed|cloned|developed)|"
                    r"originally|pioneering|seminal|for\s+the\s+first\s+time)\b", _I)
BACKGROUND = re.compile(
    r"\b(?:plays?\s+(?:an?\s+)?(?:\w+\s+)?roles?|(?:attracted|received|gained|drawn)\s+(?:\w+\s+)?(?:attention|interest)|"
    r"(?:widely|commonly|extensively|frequently|increasingly|broadly)\s+(?:used|studied|applied|employed|investigated|"
    r"accepted|recognized|recognised|known)|in\s+recent\s+(?:years|decades)|recent\s+(?:years|decades|advances|studies)|"
    r"one\s+of\s+the\s+most|well[- ]known|well[- ]established|it\s+is\s+(?:now\s+)?(?:known|established|accepted|"
    r"believed|thought)|(?:many|numerous|several|various|multiple)\s+(?:studies|reports|groups|researchers|authors)|"
    r"(?:major|leading|common|main)\s+cause|worldwide|great\s+potential|promising|attractive|emerging|important|"
    r"essential|crucial|critical|key\s+(?:role|factor|regulator|step)|is\s+known\s+to|are\s+known\s+to|"
    r"(?:has|have)\s+been\s+(?:widely|extensively|intensively)|a\s+(?:wide|broad)\s+(?:range|variety|spectrum))\b", _I)
POINTER = re.compile(r"\b(?:for\s+(?:a\s+|an\s+|recent\s+|comprehensive\s+)?(?:reviews?|overview|details)|reviewed\s+"
                      r"(?:in|by|elsewhere)|references\s+therein|e\.g\.|see\s+(?:also\s+)?\[CITATION\]|"
                      r"as\s+(?:reported|described|discussed|shown)\s+(?:previously|elsewhere|before|in\s+the\s+literature)|"
                      r"in\s+the\s+literature|literature)\b", _I)
ROUTINE = re.compile(
    r"\b(?:assigned\s+to|attributed\s+to|assignable\s+to|characteristic\s+(?:peaks?|bands?|signals?|reflections?)|"
    r"(?:peaks?|bands?|signals?|reflections?|resonances?)\s+(?:at|around|near|centred|centered)|lattice\s+"
    r"(?:parameters?|constants?)|(?:reported|literature|previous|standard)\s+values?|JCPDS|ICDD|PDF\s*(?:card|no)|"
    r"cm[-−‒–]1|2θ|\d\s*ppm|binding\s+energ(?:y|ies)|diffraction\s+peaks?|space\s+group)", _I)
COMPARISON = re.compile(r"\b(?:consistent\s+with|in\s+(?:good\s+|close\s+|excellent\s+)?(?:line|agreement|accordance)"
                         r"\s+with|agree(?:s|d)?\s+(?:well\s+)?with|similar\s+to|comparable\s+(?:to|with)|in\s+contrast\s+"
                         r"(?:to|with)|contrary\s+to|in\s+keeping\s+with|corroborat\w+|confirm(?:s|ed|ing)?\s+"
                         r"(?:previous|earlier|prior))\b", _I)
OWN = re.compile(r"\b(?:we|our|us|here(?:in)?|this\s+(?:study|work|paper|report)|the\s+present\s+(?:study|work)|"
                  r"in\s+the\s+current\s+study)\b", _I)
PASSING = re.compile(r"\b(?:using|used|use|employed|employing|utili[sz]ed|software|package|database|databank|"
                      r"force\s+field|toolbox|toolkit|program|kit|protocols?|algorithm|descriptors?|functional|"
                      r"basis\s+set|implemented|server|pipeline|library|version|code|dataset|data\s+set|"
                      r"tool|method(?:ology)?|procedure|technique|approach|model(?:led|ed)?|parameters?|"
                      r"representation|kernel|following|according\s+to|adapted|modified|performed|calculated|"
                      r"computed|simulated|estimated|measured)\b", _I)
SEE = re.compile(r"\(\s*see\b[^()]{0,200}\[CITATION\]|\bsee\s+(?:the\s+)?(?:materials|methods|supplementary|"
                  r"section|fig|table|text|below|above)", _I)
#: The words of :data:`LIST` (without its commas and semicolons), as written: they hold neither, so a count of
#: LIST's matches is the commas and semicolons plus the matches of these on the lower-cased text.
LIST_WORDS = re.compile(r"\bsuch\s+as\b|\bincluding\b|\band\s+other\b|\betc\b")
LIST = re.compile(r",|;|" + LIST_WORDS.pattern, _I)
DANGLING = re.compile(r"(?:[a-z0-9]|(?:This|These|Those|That|Such|It|Its|They|Their|Them|He|She|His|Her|However|Thus|"
                       r"Therefore|Hence|Moreover|Furthermore|In\s+addition|Additionally|Similarly|Likewise|"
                       r"Consequently|Nevertheless|Nonetheless|Accordingly|Indeed|Also|Again|Both|Here|In\s+this|"
                       r"In\s+these|In\s+that|As\s+such|Consistent|In\s+contrast|Conversely|Instead|Then|Later|"
                       r"Subsequently|Finally|Interestingly|Notably|Importantly|Surprisingly|Unlike|Yet|But|And|"
                       r"Besides|Otherwise|Alternatively|The\s+latter|The\s+former)\b)")
LEFTOVER = re.compile(r"\[\s*\d+(?:\s*[,–−-]\s*\d+)*\s*\]|\(\s*\d+(?:\s*[,–−-]\s*\d+)*\s*\)|"
                       r"\b[A-Z][A-Za-z'’-]{1,40}(?:\s+et\s+al\.?)?,?\s+(?:19|20)\d{2}[a-z]?\b|\[\s*\d|\d\]")
AUTHOR = re.compile(r"\bet\s+al\b|\band\s+(?:colleagues|co-?workers|collaborators)\b|['’]s\s+(?:group|lab|"
                     r"laboratory|team)\b|\bthe\s+group\s+of\b", _I)
HEDGE = re.compile(r"\b(?:may|might|could|can|potentially|possibly|likely|perhaps|putative(?:ly)?)\b", _I)
TITLE_REVIEW = re.compile(r"\b(?:review|reviews|overview|perspectives?|advances|progress|update|trends|"
                           r"challenges|opportunities|state\s+of\s+the\s+art|current\s+status|insights|introduction\s+to|"
                           r"primer|tutorial|roadmap|outlook|recent\s+developments|mini-?review)\b", _I)
TITLE_RESOURCE = re.compile(r"\b(?:database|databank|software|(?:an?|R|software|Python)\s+package|server|"
                             r"toolkit|toolbox|program|pipeline|"
                             r"protocols?|handbook|manual|guidelines?|atlas|resource|library|web\s*server|"
                             r"platform|tool|force\s+field|user\s+guide|statistics|report)\b", _I)
REFERRING = re.compile(r"(?:This|These|Those|That|Such|It|Its|They|Their|Both|Similar|Analogous|Similarly|Likewise|"
                        r"In\s+(?:this|these|that|those|all|both|such)|The\s+(?:latter|former|same))\b")
#: A token names a specific thing when it mixes letters and digits, or has an inner capital, an acronym or a
#: Greek letter. One scan finds such tokens, each tried once from its start (linear time): a mark, or
#: the first letter-or-digit of the token followed later by one of the other kind.
SPECIFIC_TOKEN = re.compile(r"(?<!\S)(?:\S*?(?:[a-z][A-Z]|[A-Z]{2}|[α-ωΑ-Ω])|"
                             r"[^\sA-Za-z\d]*(?:\d[^\sA-Za-z]*[A-Za-z]|[A-Za-z][^\s\d]*\d))\S*")
SPECIFIC_MARK = re.compile(r"[a-z][A-Z]|[A-Z]{2}|[α-ωΑ-Ω]")
#: What makes one token (no space in it) a match of SPECIFIC_TOKEN: a mark, or a digit and a letter in either order.
SPECIFIC_TOKEN_TEST = re.compile(SPECIFIC_MARK.pattern + r"|\d\S*?[A-Za-z]|[A-Za-z]\S*?\d")
DIGIT = re.compile(r"\d")
LETTER = re.compile(r"[A-Za-z]")
REVIEW_VENUE = re.compile(r"\b(?:Rev|Revs|Review|Reviews|Trends|Curr\.?\s+Opin|Current\s+Opinion|Annu|Annual|"
                           r"Acc\.?\s+Chem|Accounts|Prog|Progress|Crit)\b", _I)
SECTION_KINDS = ("introduction", "results", "discussion")
DEMONSTRATIVE = re.compile(
    r"\b(?:this|these|those|such)\s+(?!(?:study|studies|work|paper|report|review|article|manuscript)\b)[a-z]|"
    r"\b(?:the\s+(?:latter|former|same|above|aforementioned)|aforementioned|above[- ]mentioned)\b", _I)
PASSIVE_ATTRIBUTION = re.compile(
    r"\b(?:was|were|is|are|has\s+been|have\s+been|had\s+been)\s+(?:\w+ly\s+)?(?:shown|found|reported|demonstrated|"
    r"observed|identified|proposed|suggested|described|revealed|confirmed|discovered|established)\s+"
    r"(?:to|that|in|by|as|for|when|after|with)\b", _I)
STUDY_SUBJECT = re.compile(
    r"\b(?:(?:a|one|another|recent|previous|earlier|later|prior|subsequent)\s+(?:\w+\s+)?(?:study|studies|work|report|"
    r"paper|analysis|investigation|trial)|(?:studies|researchers|investigators|authors)\s+(?:have|has|had)?)\b", _I)
PAST = re.compile(r"\b(?:was|were|had|did)\b", _I)
TITLE_FINDING = re.compile(
    r"\b(?:inhibits?|induces?|promotes?|regulates?|reveals?|mediates?|controls?|enhances?|suppresses?|activates?|"
    r"drives?|causes?|requires?|determines?|modulates?|increases?|decreases?|reduces?|prevents?|affects?|confers?|"
    r"is|are|improves?|enables?|leads?|shows?|impairs?|protects?|triggers?|limits?|blocks?|binds?|forms?|acts?|"
    r"contributes?|underlies|governs?|interacts?)\b", _I)
#: A content word of a title (three characters or more) and the function words ``title_overlap`` leaves out.
CONTENT_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]{2,}")
TITLE_STOP = frozenset(
    "the and for with from into its are was were has have been not but via that this which their these those they "
    "than then there also such other more most some only both each when where while would could should about after "
    "before between during under over very well however using used based".split())
