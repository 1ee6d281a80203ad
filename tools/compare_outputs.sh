#!/usr/bin/env bash
# Before/after comparison of the CLI: runs one fixed command set against two chemref trees and lists every
# output (stdout, stderr, exit status, files written) that differs. Usage, from the project root:
#   git worktree add /tmp/base BASE_COMMIT; bash tools/compare_outputs.sh /tmp/base . /tmp/compare
# Expected differences: timestamps in manifest.json, the review page's storage key (a hash of the run folder).
set -u
BASE=$(cd "$1" && pwd); NEW=$(cd "$2" && pwd); OUT=$3
SELF=$(cd "$(dirname "$0")" && pwd)/compare_outputs.sh
if [ "${4:-}" != "--one" ]; then
  bash "$SELF" "$BASE" "$BASE" "$OUT/base" --one; bash "$SELF" "$NEW" "$NEW" "$OUT/new" --one
  cd "$OUT"; diff base/status.txt new/status.txt && echo "exit statuses: same"
  for f in $(cd base && ls *.out *.err); do cmp -s "base/$f" "new/$f" || echo "differs: $f ($(sed -n "${f%%.*}p" base/status.txt))"; done
  for f in $(cd base/w && find . -type f ! -path "./corpora/*" | sort); do cmp -s "base/w/$f" "new/w/$f" || echo "differs: $f"; done
  exit 0
fi
PP=$BASE
rm -rf "$OUT"; mkdir -p "$OUT/w"; cp -r "$PP/corpora" $OUT/w/corpora
cd "$OUT/w"
n=0
run() { n=$((n+1)); PYTHONPATH=$PP python -m chemref "$@" > ../$n.out 2> ../$n.err; echo "$? $*" >> ../status.txt; }
run jats corpora/jats/sample_cu_tio2_co2.xml
run jats corpora/jats/ --json -o articles.jsonl
run questions build corpora/jats -o sample/questions.jsonl --rejected sample/rejected.jsonl --min-score 0 --no-progress
run questions evaluate corpora/labels/sample_labels.jsonl --questions sample/questions.jsonl --rejected sample/rejected.jsonl
run questions evaluate corpora/labels/sample_labels.jsonl --questions sample/questions.jsonl --rejected sample/rejected.jsonl --json
run questions build corpora/jats -o q.jsonl --report q_report.json --no-progress
run questions build corpora/jats -o out/ --no-progress --workers 2
run questions train-selector corpora/labels/sample_labels.jsonl --questions sample/questions.jsonl --rejected sample/rejected.jsonl -o sel.json --cv-scores cv.jsonl --folds 2
run questions judge prepare q.jsonl -o req.jsonl
run questions judge apply sample/questions.jsonl corpora/judge/sample_responses.jsonl -o judged.jsonl
run baseline bm25 q.jsonl -o preds.jsonl
run score questions q.jsonl preds.jsonl --k 1 --k 10
run score questions q.jsonl preds.jsonl --k 1 --json
run score questions --format citeme corpora/citeme/sample.tsv preds.jsonl
run score brat corpora/brat/gold corpora/brat/pred
run score brat corpora/brat/gold corpora/brat/pred --json
run score brat corpora/brat/gold corpora/brat/pred --per-doc --errors
run score brat corpora/brat/gold corpora/brat/pred --markdown
run score brat corpora/brat/gold corpora/brat/pred --csv
run score brat corpora/brat/gold corpora/brat/pred --brateval --level entities --span approx --similarity 0.8 --type inexact
run score brat corpora/brat/gold corpora/brat/pred --brateval
run score brat corpora/brat/gold corpora/brat/pred --ci 0.95 --resamples 200
run score brat corpora/brat/gold corpora/brat/pred corpora/brat/pred_b --names a,b --markdown --trials 500
run score brat corpora/brat/gold corpora/brat/pred --html errors.html
run score ranking corpora/ranking/qrels.txt corpora/ranking/run_a.run --format trec --k 10
run score ranking corpora/ranking/qrels.txt corpora/ranking/run_a.run corpora/ranking/run_b.run --format trec --test bootstrap --trials 200 --resamples 200
run score pubmedqa corpora/pubmedqa/sample_ground_truth.json corpora/pubmedqa/sample_pred.json
run score pubmedqa corpora/pubmedqa/sample_ground_truth.json corpora/pubmedqa/sample_pred.json --ci 0.95 --resamples 200
run questions review sample/questions.jsonl --rejected sample/rejected.jsonl -o review.html
run --help
run score brat --help
run questions build --help
run score ranking --help
run score brat
run score brat corpora/brat/gold missing/
run questions build corpora/jats -o x.jsonl --authors bogus
