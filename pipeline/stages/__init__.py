"""The build's stages, one file each, and the driver that runs them.

Each stage is one object of the stage protocol (`driver.StageWork`): what it reads, its items, the work for one
item (a plain function of the run and the item that writes the item's records) and its funnel counts. The
driver (`driver.run_stage`, `driver.Driver`) does the rest for every stage: resume, progress, stops,
retries, done markers, the funnel; on threads of this process or, in the build flow, on Prefect (flows/).
"""
