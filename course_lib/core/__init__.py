"""The core every lesson builds on, by component: the Transformer the course builds (`model`), the
trainer, tasks and stored files (`experiments`), the bases of figures (`plots`), demos (`widgets`)
and checkers (`checks`), claims, questions, papers, argument checks and the Chinese catalogue
(`i18n`). It imports no lesson."""
