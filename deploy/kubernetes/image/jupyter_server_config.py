# A learner's Jupyter server in the class image: a lesson's kernel idle for 15 minutes is stopped,
# so a learner who moves on to the next lesson frees the memory of the last (the memory limit of
# config.yaml leaves room for two kernels at once).
c = get_config()  # noqa: F821 (Jupyter's config loader defines it)
c.MappingKernelManager.cull_idle_timeout = 900
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = False
# No network but the hub's: JupyterLab asks no news feed and no update server.
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"
