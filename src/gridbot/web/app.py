"""The playground's web app: one static page and a JSON API over the game modules and `gridbot.render`.

>>> from fastapi.testclient import TestClient
>>> with TestClient(create_app(max_solves=1)) as client:
...     answer = client.post("/api/run", json={"game": "carrots", "level": "1", "program": "F F"}).json()
>>> answer["verdict"]["text"], answer["steps"], len(answer["frames"])
('completed at step 2', 2, 3)

Every request is capped (`Caps`): body bytes, level bytes, program characters, time limit, frames per run and
solves at once. Levels come by bundled name or as pasted text, never as a path. Bad input gets a 4xx with
{"error": {"kind", "message", "line", "column"}}, the position the game's parser gave.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from gridbot import __version__, games, levels, render
from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.render import svg_text
from gridbot.result import Outcome
from gridbot.text import is_digits

from . import slots
from .solves import Solves, TooManySolves

STATIC = Path(__file__).parent / "static"
PAGE_HEADERS = {  # the page loads nothing from elsewhere and runs only its own script
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


@dataclass(frozen=True, slots=True)
class Caps:
    """What one request may ask for at most."""

    max_body: int = 64 * 1024  # bytes of a request body
    max_level_bytes: int = 32 * 1024  # bytes of a level text (also at most what the game's format reads)
    max_program_chars: int = 10_000  # characters of a program
    max_time_limit: float = 60.0  # seconds of a solve
    default_time_limit: float = 10.0
    max_frames: int = 200  # pictures of one run
    max_frame_bytes: int = 8 * 2**20  # SVG text of one run's pictures together (a big board gets fewer frames)
    max_steps: int = 20_000  # steps of a run the pictures follow (the verdict is the simulator's, for the whole run)
    max_solves: int = 2  # solves running at once (analyses and generations too); one more is refused with 429
    max_side: int = 24  # the width or height a level may be made with
    max_cap: int = 100  # optimal solutions an analysis counts at most


class BadInput(Exception):
    """A request the API refuses: HTTP `status` and the parser's message and position."""

    def __init__(self, status: int, kind: str, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.status, self.kind, self.message, self.line, self.column = status, kind, message, line, column

    def response(self) -> JSONResponse:
        error = {"kind": self.kind, "message": self.message, "line": self.line, "column": self.column}
        return JSONResponse({"error": error}, status_code=self.status)


class _BodyTooLarge(Exception):
    pass


class LevelIn(BaseModel):
    game: str = Field(description="a game of GET /api/games")
    level: str | None = Field(
        None, description="a bundled level: GAME:NAME as on the command line, or NAME (GET /api/levels/{game})"
    )
    text: str | None = Field(None, description="a level's text, as the game's level files hold it")


class RunIn(LevelIn):
    program: str | None = Field(None, description="the program (or moves, or path) to run; none: the level alone")


class ProgramIn(LevelIn):
    program: str = Field("", description="the program's text, as it is typed")


class EditIn(LevelIn):
    row: int = Field(description="0-based row of the cell clicked")
    col: int = Field(description="0-based column of the cell clicked")


class SolveIn(LevelIn):
    time_limit: float | None = Field(None, description="seconds (default 10, at most the server's cap)")


class AnalyzeIn(SolveIn):
    cap: int | None = Field(None, description="optimal solutions counted at most (default and most: the server's cap)")


class GenerateIn(BaseModel):
    game: str = Field(description="a game of GET /api/games that can make levels to order (its `generate`)")
    par: int | None = Field(None, description="the proven optimum the level must have (none: the game's default)")
    size: str | None = Field(None, description="WxH, e.g. 6x5 (none: the game's default)")
    unique: bool = Field(False, description="exactly one optimal solution by behaviour")
    none: bool = Field(False, description="pellet: a board with no path at all")
    torches: int | None = Field(None, description="torch_cave: every path needs at least this many torches")
    seed: int = Field(0, description="the same level for the same seed and options")
    time_limit: float | None = Field(None, description="seconds (default 10, at most the server's cap)")


def _module(game: str) -> ModuleType:
    try:
        return games.get(game)
    except GridbotError as exc:
        raise BadInput(404, "game", str(exc)) from None


def _sets(game: str) -> list[dict[str, Any]]:
    """A game's bundled level sets, the main set first: each set's name and its levels' names, in order."""
    return [{"name": name, "levels": levels.names(game, name)} for name in levels.level_sets(game)]


def _bundled_text(game: str, stem: str) -> str:
    """The text of bundled level `stem` (a name from levels.names, never a path from the request)."""
    text = levels.bundled_text(game, stem)
    if text is None:
        raise BadInput(404, "level", f"no bundled level {game}:{stem}")
    return text


def _level(body: LevelIn, caps: Caps) -> tuple[ModuleType, Any, str]:
    """(game module, parsed level, level text) of a request; BadInput with the parser's position."""
    module = _module(body.game)
    if (body.level is None) == (body.text is None):
        raise BadInput(400, "request", "give either level (a bundled level's name) or text (a level's text)")
    if body.level is not None:
        # `carrots:2` as on the command line, or `2`; never a path, so the disk is not asked (levels.split_spec)
        game_name, _, wanted = body.level.rpartition(":")
        if game_name:
            try:
                levels.check_game(body.level, game_name, module.NAME)
            except GridbotError as exc:
                raise BadInput(400, "level", str(exc)) from None
        stem = levels.bundled(module.NAME, wanted)
        if stem is None:
            raise BadInput(404, "level", f"no bundled level {body.level!r} of {module.NAME}")
        name, text = f"{module.NAME}:{stem}", _bundled_text(module.NAME, stem)
    else:
        name, text = "your level", body.text or ""
        limit = min(caps.max_level_bytes, levels.max_bytes(module.NAME))
        try:
            size = len(text.encode())
        except UnicodeEncodeError as exc:  # JSON can carry a lone surrogate, which no level file holds
            raise BadInput(400, "level", "the level is not valid Unicode text", *_position(text, exc.start)) from None
        if size > limit:
            raise BadInput(413, "level", f"the level is larger than {limit} bytes, the most the playground reads")
    try:
        return module, module.Level.parse(text, name=name), text
    except LevelError as exc:
        raise BadInput(400, "level", exc.message, exc.line, exc.column) from None
    except (GridbotError, ValueError) as exc:
        raise BadInput(400, "level", str(exc)) from None


def _position(text: str, index: int) -> tuple[int, int]:
    """(line, column), both 1-based, of character `index` of `text`."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _program(module: ModuleType, text: str | None, caps: Caps) -> Any:
    """The parsed program, or None for none; BadInput with the column of the parser's complaint. An empty text
    is no program, but where a program is optional (Bender) it is the empty answer: the robot's own journey."""
    if text is None or not text.strip() and not games.optional(module, "PROGRAM_OPTIONAL"):
        return None
    if len(text) > caps.max_program_chars:
        raise BadInput(413, "program", f"the program is longer than {caps.max_program_chars} characters")
    try:
        return module.parse_program(text)
    except ProgramError as exc:
        raise BadInput(400, "program", exc.message, 1 if exc.column else 0, exc.column) from None
    except (GridbotError, ValueError, RecursionError) as exc:
        raise BadInput(400, "program", str(exc) or type(exc).__name__) from None


def _verdict(verdict: Any) -> dict[str, Any]:
    data = {"status": verdict.status, "step": verdict.step, "remaining": verdict.remaining, "won": verdict.won,
            "text": str(verdict)}  # fmt: skip
    reason = getattr(verdict, "reason", None)
    if reason:
        data["reason"] = reason
    return data


class _Pictures:
    """Scenes as the SVG text of svg_text.to_svg, byte for byte, with each distinct shape written once: the
    frames of one run share most of their shapes (the cells that did not change). O(distinct shapes) text."""

    def __init__(self) -> None:
        self.lines: dict[Any, str] = {}

    def svg(self, scene: Any) -> str:
        head, tail = svg_text.to_svg(dataclasses.replace(scene, shapes=())).rsplit("</svg>", 1)
        parts = [head]
        for shape in scene.shapes:
            line = self.lines.get(shape)
            if line is None:
                line = self.lines[shape] = svg_text.shape_svg(shape) + "\n"
            parts.append(line)
        parts.append("</svg>" + tail)
        return "".join(parts)


def _frames(level: Any, program: Any, verdict: Any, caps: Caps) -> tuple[int, list[dict[str, Any]]]:
    """(the last step shown, [{step, svg}] of at most caps.max_frames pictures spread over the run, fewer when
    the pictures are large: together at most about caps.max_frame_bytes). O(steps + frames x picture)."""
    draw = render.drawing(level)
    pictures = _Pictures()
    alone = pictures.svg(draw.draw(level, None, [0])[0])
    if program is None:
        return 0, [{"step": 0, "svg": alone}]
    last = min(draw.steps(level, program), caps.max_steps)
    if verdict is not None and verdict.status == Outcome.FOREVER:
        last = min(last, verdict.step)  # the run repeats from there on: more pictures would show nothing new
    final = pictures.svg(draw.draw(level, program, [last])[0])  # the largest picture: its trail is longest
    room = max(2, min(caps.max_frames, caps.max_frame_bytes // max(len(alone), len(final))))
    at = render.frame_steps(last, room)
    texts = [pictures.svg(scene) for scene in draw.draw(level, program, at[:-1])] + [final]
    return last, [{"step": k, "svg": text} for k, text in zip(at, texts, strict=True)]


def _run(body: RunIn, caps: Caps) -> dict[str, Any]:
    module, level, text = _level(body, caps)
    program = _program(module, body.program, caps)
    out: dict[str, Any] = {"game": module.NAME, "level": getattr(level, "name", ""), "text": text}
    if program is not None:
        outcome = module.run(level, program)
        verdict = outcome.verdict
        out["program"] = None if program is None else str(program)
        out["tokens"] = getattr(program, "tokens", None)
        out["verdict"] = _verdict(outcome.verdict)
        fields = games.optional(module, "run_fields")
        out["fields"] = {} if fields is None else fields(outcome)
    else:
        verdict = None
        out["program"] = out["tokens"] = out["verdict"] = None
        out["fields"] = {}
    out["drawing"] = render.has_drawing(module.NAME)
    if out["drawing"]:
        out["steps"], out["frames"] = _frames(level, program, verdict, caps)
        out["sampled"] = len(out["frames"]) < out["steps"] + 1 and program is not None
    else:
        out["steps"], out["frames"], out["sampled"] = 0, [], False
    return out


# The games whose levels are made to order (issue 52); gridbot.generate.order refuses the others with its reason.
GENERATES = ("carrots", "pellet", "torch_cave", "lightbot", "robozzle")


def _order(body: GenerateIn, caps: Caps) -> dict[str, Any]:
    """The options of a generate job from the request, checked as gridbot.generate checks them (make_order);
    BadInput with the generator's one-line reason for an order no level can meet, or a value outside the caps."""
    from gridbot.generate.order import MAKERS, make_order

    module = _module(body.game)
    if module.NAME not in GENERATES or module.NAME not in MAKERS:
        raise BadInput(400, "game", f"{module.NAME} levels are not made to order (these are: {', '.join(GENERATES)})")
    size = None
    if body.size is not None and body.size.strip():
        width, x, height = body.size.strip().lower().partition("x")
        if not (x and is_digits(width.strip()) and is_digits(height.strip())):
            raise BadInput(400, "size", f"the size is WIDTHxHEIGHT, e.g. 6x5, not {body.size!r}")
        size = (int(width), int(height))
    width, height = MAKERS[module.NAME].default_size if size is None else size
    if not (1 <= width <= caps.max_side and 1 <= height <= caps.max_side):
        raise BadInput(400, "size", f"the playground makes levels of at most {caps.max_side} cells a side")
    if not 0 <= body.seed < 2**63:
        raise BadInput(400, "seed", "the seed must be a whole number from 0 to 2**63 - 1")
    options = {"par": body.par, "size": size, "unique": body.unique, "none": body.none, "torches": body.torches,
               "seed": body.seed}  # fmt: skip
    try:
        make_order(module.NAME, **options)
    except GridbotError as exc:
        raise BadInput(400, "order", str(exc)) from None
    return options


def _time_limit(value: float | None, caps: Caps) -> float:
    if value is None:
        return min(caps.default_time_limit, caps.max_time_limit)
    if not (0 < value <= caps.max_time_limit):  # also refuses NaN
        raise BadInput(400, "time_limit", f"the time limit must be more than 0 and at most {caps.max_time_limit:g} s")
    return float(value)


def _limit_body(limit: int) -> Callable[[Any], Any]:
    """ASGI middleware: 413 for a body over `limit` bytes, by its Content-Length or as it arrives."""

    def wrap(app: Any) -> Any:
        async def middleware(scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                             send: Callable[[Any], Awaitable[None]]) -> None:  # fmt: skip
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            length = dict(scope.get("headers", [])).get(b"content-length")
            # a header's value is bytes, whose isdigit() takes ASCII digits only
            if length is not None and (not length.isdigit() or int(length) > limit):
                await BadInput(413, "request", f"the request body is larger than {limit} bytes").response()(
                    scope, receive, send
                )
                return
            seen = 0
            refused = BadInput(413, "request", f"the request body is larger than {limit} bytes").response()

            async def counted() -> Any:
                nonlocal seen
                message = await receive()
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _BodyTooLarge  # the app answers it somehow (FastAPI: 400); `answer` sends 413 instead
                return message

            async def answer(message: Any) -> None:
                if seen <= limit:
                    await send(message)
                elif message["type"] == "http.response.start":
                    await refused(scope, receive, send)

            await app(scope, counted, answer)

        return middleware

    return wrap


def create_app(caps: Caps | None = None, **changes: Any) -> FastAPI:
    """The playground app: `caps` (default Caps()) with `changes` to single caps, e.g. max_solves=1.

    Running solves are killed when the app shuts down. O(1).
    """
    caps = dataclasses.replace(caps or Caps(), **changes)
    solves = Solves(max_running=caps.max_solves)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        solves.close()

    about = "Run, edit and solve the levels of gridbot's games; the pictures are gridbot.render's SVG."
    app = FastAPI(title="gridbot playground", version=__version__, lifespan=lifespan, description=about)
    app.state.caps = caps
    app.state.solves = solves
    body_limit = _limit_body(caps.max_body)

    class BodyLimit:  # Starlette's add_middleware wants a class taking the app
        def __init__(self, inner: Any) -> None:
            self.call = body_limit(inner)

        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await self.call(scope, receive, send)

    app.add_middleware(GZipMiddleware, minimum_size=2048)  # a run's pictures repeat themselves: ~20x smaller
    app.add_middleware(BodyLimit)

    @app.exception_handler(BadInput)
    async def bad_input(request: Request, exc: BadInput) -> JSONResponse:
        return exc.response()

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        response = BadInput(exc.status_code, "request", str(exc.detail)).response()
        response.headers.update(exc.headers or {})
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = f"{where}: {first.get('msg', 'invalid request')}" if where else first.get("msg", "invalid request")
        return BadInput(422, "request", message).response()

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/games")
    def list_games() -> list[dict[str, Any]]:
        """Every game: its name, what a solution is and counts, whether a program is optional, its drawing, and
        whether it makes levels to order (`generate`)."""
        out = []
        for name in games.GAMES:
            module = games.get(name)
            drawn = render.has_drawing(name)
            palette = render.drawing(name).PALETTE if drawn else ""
            out.append({"name": name, "unit": games.optional(module, "UNIT"),
                        "solution": games.optional(module, "SOLUTION"),
                        "program_optional": games.optional(module, "PROGRAM_OPTIONAL"),
                        "drawing": drawn, "palette": palette,
                        "levels": sum(len(part["levels"]) for part in _sets(name)),
                        "generate": name in GENERATES})  # fmt: skip
        return out

    @app.get("/api/levels/{game}")
    def list_levels(game: str) -> dict[str, Any]:
        """The names of a game's bundled levels, in order: every set's (RoboZZle's later puzzles too), the main set
        first, and the same names set by set."""
        module = _module(game)
        sets = _sets(module.NAME)
        return {"game": module.NAME, "levels": [name for part in sets for name in part["levels"]], "sets": sets}

    @app.get("/api/levels/{game}/{name}")
    def level_text(game: str, name: str) -> dict[str, Any]:
        """One bundled level's text."""
        module = _module(game)
        stem = levels.bundled(module.NAME, name)
        if stem is None:
            raise BadInput(404, "level", f"no bundled level {name!r} of {module.NAME}")
        return {"game": module.NAME, "name": stem, "text": _bundled_text(module.NAME, stem)}

    @app.post("/api/run")
    def run(body: RunIn) -> dict[str, Any]:
        """Run a program on a level: the verdict, the run's steps and its pictures (SVG, at most max_frames, each
        with its step number; a long run is sampled, both ends kept). Without a program: the level's picture."""
        return _run(body, caps)

    @app.post("/api/program")
    def program(body: ProgramIn) -> dict[str, Any]:
        """The slot editor of a program game for the level: `editor` (its rows of slots, the palette's commands
        and colour conditions; null for a game whose programs are typed only), the program read into the rows
        (`functions`: [[{op, cond}]]), its canonical `text`, `tokens`, and `problems` ('' when it fits the level).
        A program the parser refuses gives `error` ({kind, message, line, column}, as a run's 400 has it) and no
        rows, with the editor still: the page keeps its slots and shows the message."""
        module, level, _ = _level(body, caps)
        editor = slots.layout(module, level)
        out: dict[str, Any] = {"game": module.NAME, "editor": editor, "functions": None, "text": None,
                               "tokens": None, "problems": "", "error": None}  # fmt: skip
        if editor is None:
            return out
        try:
            parsed = _program(module, body.program, caps)
        except BadInput as exc:
            out["error"] = {"kind": exc.kind, "message": exc.message, "line": exc.line, "column": exc.column}
            return out
        if parsed is not None:
            out.update(functions=slots.slots(module, parsed), text=str(parsed), tokens=parsed.tokens,
                       problems=parsed.problems(level) if hasattr(parsed, "problems") else "")  # fmt: skip
        return out

    @app.post("/api/edit")
    def edit(body: EditIn) -> dict[str, Any]:
        """The level's text with the cell at (row, col) turned to the next of its game's palette, and its picture."""
        module, level, _ = _level(body, caps)
        if not render.has_drawing(module.NAME):
            raise BadInput(400, "game", f"{module.NAME} has no drawing to edit yet")
        try:
            text = render.edit(level, body.row, body.col)
        except (GridbotError, ValueError, IndexError) as exc:
            raise BadInput(400, "cell", str(exc)) from None
        return _run(RunIn(game=module.NAME, text=text), caps)

    def _start(game: str, text: str, limit: float, kind: str, options: dict[str, Any]) -> dict[str, Any]:
        try:
            job = solves.start(game, text, limit, kind, options)
        except TooManySolves as exc:
            response = BadInput(429, "busy", str(exc)).response()
            response.headers["Retry-After"] = "5"
            return response  # type: ignore[return-value]
        except OSError as exc:  # no process to be had (the machine's limit): the server is unwell, not the request
            return BadInput(503, "busy", f"cannot start a solver: {exc}").response()  # type: ignore[return-value]
        where = "solve" if kind == "solve" else "jobs"
        return {"id": job.id, "kind": kind, "events": f"/api/{where}/{job.id}/events", "time_limit": limit}

    @app.post("/api/solve", status_code=202)
    def solve(body: SolveIn) -> dict[str, Any]:
        """Start a solve in a worker process: its id and where to follow it. 429 when max_solves are running."""
        module, _, text = _level(body, caps)
        return _start(module.NAME, text, _time_limit(body.time_limit, caps), "solve", {})

    @app.post("/api/analyze", status_code=202)
    def analyze(body: AnalyzeIn) -> dict[str, Any]:
        """Start an analysis of the level (gridbot.analyze) in a worker process, followed as a solve is (at
        /api/jobs/{id}); when done its `analysis`: status, par, programs, behaviours, examples, longer, needed,
        candidates, seconds. 429 when max_solves jobs are running."""
        module, level, text = _level(body, caps)
        cap = caps.max_cap if body.cap is None else body.cap
        if not 1 <= cap <= caps.max_cap:
            raise BadInput(400, "cap", f"the cap must be from 1 to {caps.max_cap}")
        options = {"cap": cap, "name": getattr(level, "name", "")}
        return _start(module.NAME, text, _time_limit(body.time_limit, caps), "analyze", options)

    @app.post("/api/generate", status_code=202)
    def generate(body: GenerateIn) -> dict[str, Any]:
        """Start making a level to order (gridbot.generate: its proven par is `par`, with `unique` exactly one
        optimal solution by behaviour; Pellet `none`: no path; torch cave `torches`: every path needs that many) in
        a worker process; when done its `levels`: [{text, analysis, tried}] (none when the time ran out first). An
        order no level can meet is a 400 with the generator's reason. 429 when max_solves jobs are running."""
        options = _order(body, caps)
        return _start(_module(body.game).NAME, "", _time_limit(body.time_limit, caps), "generate", options)

    def _job(job_id: str) -> Any:
        job = solves.get(job_id)
        if job is None:
            raise BadInput(404, "solve", f"no solve {job_id!r} (finished solves are forgotten after a while)")
        return job

    @app.get("/api/jobs/{job_id}")
    @app.get("/api/solve/{job_id}")
    def solve_state(job_id: str) -> dict[str, Any]:
        """A solve's state: status (running, optimal, solved, unsolvable, timeout, cancelled, error), seconds,
        the latest progress, and when finished its solution (re-checked by the simulator) and length."""
        return _job(job_id).snapshot()

    @app.get("/api/jobs/{job_id}/events")
    @app.get("/api/solve/{job_id}/events")
    async def solve_events(job_id: str) -> StreamingResponse:
        """Server-sent events: `progress` (at least every second, with the seconds so far) until one `done`."""
        job = _job(job_id)

        async def events() -> AsyncIterator[str]:
            sent, ticks = -1, 0
            while True:
                state = job.snapshot()
                if state["status"] != "running":
                    yield f"event: done\ndata: {json.dumps(state)}\n\n"
                    return
                if state["version"] != sent or ticks >= 4:
                    sent, ticks = state["version"], 0
                    yield f"event: progress\ndata: {json.dumps(state)}\n\n"
                ticks += 1
                await asyncio.sleep(0.25)

        return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    @app.delete("/api/jobs/{job_id}")
    @app.delete("/api/solve/{job_id}")
    def cancel(job_id: str) -> dict[str, Any]:
        """Stop a solve: its worker process (and any it started) is killed; the solve's final state."""
        _job(job_id)
        return solves.cancel(job_id).snapshot()

    return app


__all__ = ["create_app", "Caps", "BadInput"]
