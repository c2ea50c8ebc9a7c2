"""The server's stdio loop: LSP's `Content-Length` framing read strictly, each message answered.

pygls' own loop (pygls.io_.run_async) has two gaps an editor sees as a hung server:

- a request whose params do not fit the method's type is logged and dropped: the editor waits for
  an answer for ever. Here it is answered with JSON-RPC's InvalidParams error (-32602), and a body
  that is not JSON with ParseError (-32700, id null), as JSON-RPC 2.0 asks;
- a malformed header (not `Name: value`, a Content-Length that is not a number, none at all, a body
  larger than `MAX_BODY`) leaves it reading the body as headers, out of step with the editor for good.
  Once the framing is lost there is no reliable next message boundary, so the server says why on
  stderr and exits with status 1: editors restart a language server that exits.
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
from threading import Event

from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcParseError
from pygls.io_ import StdinAsyncReader, StdoutWriter

log = logging.getLogger("series-lsp")
HEADER = re.compile(rb"([A-Za-z][A-Za-z0-9-]*)[ \t]*:[ \t]*([^\r\n]*)\r?\n")
MAX_BODY = 256 * 1024 * 1024     # bytes: a 5 MB post is about 15 MB as JSON; past this it is not LSP
MAX_HEADER = 8192                # bytes of one header line


class FramingError(Exception):
    """The input is not LSP's framing any more; the message says where it broke."""


async def read_frame(reader) -> bytes | None:
    """The next message body, or None at the end of the input; FramingError on a malformed header."""
    length = None
    while True:
        line = await reader.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        m = HEADER.fullmatch(line) if len(line) <= MAX_HEADER else None
        if m is None:
            raise FramingError(f"not a message header: {line[:80]!r}")
        if m.group(1).lower() == b"content-length":
            value = m.group(2).strip()
            if not value.isdigit() or int(value) > MAX_BODY:
                raise FramingError(f"Content-Length `{value[:40].decode('ascii', 'replace')}` is not a size up to "
                                   f"{MAX_BODY} bytes")
            length = int(value)
    if length is None:
        raise FramingError("a message without a Content-Length header")
    body = await reader.readexactly(length) if length else b""
    if len(body) < length:
        return None     # the input ended inside a body: the editor has gone
    return body


def handle(protocol, body: bytes) -> None:
    """Hand one body to pygls; a request it cannot read is answered with an error, not dropped."""
    try:
        raw = json.loads(body)
    except ValueError as exc:
        _error(protocol, None, JsonRpcParseError(f"the message is not JSON: {exc}"))
        return
    try:
        message = json.loads(body, object_hook=protocol.structure_message)
    except JsonRpcException as exc:
        method = raw.get("method") if isinstance(raw, dict) else None
        log.warning("a message of `%s` does not fit its type (%s); answered with an error",
                    method, str(exc.__cause__ or exc).split("\n")[0][:200])
        if isinstance(raw, dict) and "id" in raw and "method" in raw:
            _error(protocol, raw["id"], exc if exc.message else JsonRpcInvalidParams(
                f"the params of `{raw.get('method')}` do not fit the method"))
        return
    except Exception:     # noqa: BLE001 - pygls' own reading failed: answer what can be answered
        log.exception("cannot read a message")
        if isinstance(raw, dict) and "id" in raw and "method" in raw:
            _error(protocol, raw["id"], JsonRpcException("the server could not read this request"))
        return
    try:
        protocol.handle_message(message)
    except Exception:     # noqa: BLE001 - a handler's failure is pygls' to answer; the loop goes on
        log.exception("cannot handle a message")


def _error(protocol, msg_id, exc: JsonRpcException) -> None:
    """An error response, written here: pygls leaves out an `id` that is null, which JSON-RPC requires."""
    if isinstance(msg_id, bool) or not isinstance(msg_id, (int, str, type(None))):
        msg_id = None
    body = json.dumps({"jsonrpc": "2.0", "id": msg_id,
                       "error": {"code": exc.code, "message": exc.message or type(exc).__name__}}).encode("utf-8")
    protocol.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)


async def _loop(server, reader, stop: Event) -> int:
    while not stop.is_set():
        try:
            body = await read_frame(reader)
        except FramingError as exc:
            log.error("the input is not LSP framing any more (%s); exiting so the editor starts a new server", exc)
            return 1
        if body is None:
            return 0
        handle(server.protocol, body)
    return 0


def _not_pygls_traceback(record: logging.LogRecord) -> bool:
    """pygls logs a whole traceback for a message it cannot read; `handle` says it in one line."""
    return not record.getMessage().startswith("Unable to deserialize message")


def serve(server, stdin=None, stdout=None) -> int:
    """Run `server` (a pygls LanguageServer) over stdio with this loop; the exit status."""
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_not_pygls_traceback)
    server._stop_event = stop = Event()
    reader = StdinAsyncReader(stdin or sys.stdin.buffer, server.thread_pool)
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    status = 0
    try:
        status = asyncio.run(_loop(server, reader, stop))
    except BrokenPipeError:
        log.error("the editor closed the connection")
    except (KeyboardInterrupt, SystemExit) as exc:
        status = exc.code if isinstance(exc, SystemExit) and isinstance(exc.code, int) else 0
    finally:
        server.shutdown()
    return status
