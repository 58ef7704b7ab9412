"""The playground, `gridbot web`: a page to run, edit and solve levels, and its JSON API (docs/playground.md).

`gridbot.web.app.create_app` builds the FastAPI app (FastAPI and uvicorn come with `pip install 'gridbot[web]'`);
`gridbot.web.solves` runs solves in worker processes. Nothing is imported here, so a solve's worker (which runs
`python -m gridbot.web.solves`) does not load FastAPI.

>>> from gridbot.web.app import Caps
>>> Caps().max_solves, Caps().max_time_limit
(2, 60.0)
"""
