"""How sure a score is: the resampling settings (``resampling``, without numpy), bootstrap intervals and paired
significance tests (``bootstrap``), and agreement figures (``agreement``: Cohen's kappa, ranking AUC)."""
