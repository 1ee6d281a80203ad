"""Citation-prediction question building from JATS articles (issue 5)."""
