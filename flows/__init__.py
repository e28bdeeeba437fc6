"""flows: the Prefect flows that sequence the stages, and nothing else.

`build` runs the stages of pipeline/stages/ in order through the driver on Prefect's executor (`mapped`), on
the task runner the command chose (`runners`: threads or Dask); `schedule` serves the build on a cron or an
interval; `server` and `server_watch` start and watch a Prefect server; `pools` shares sandbox pools between
a worker's items; `stop_tracking` turns a stop request into the funnel of how far the build got. Prefect is
imported here and nowhere below.
"""
