"""Connecting to Ray: the one way every part of mancala reaches a cluster.

``--ray ADDRESS`` (``mancala arena``, ``mancala db build``, ``mancala solve``) names a running
cluster (``ray start --head`` prints its address); ``local`` starts a Ray of this machine's cores
for the command's lifetime.  Every node runs the mancala installed there, so it must be the same
version as the driver's: :func:`connect` asks each node and refuses a cluster that differs, in one
line, before any work is sent.  Work crosses to the workers as data (rules arrays, positions,
database bytes through Ray's object store), never as live objects.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from typing import Any

from mancala.errors import BadInput, MancalaError, is_whole_number


def ray_module() -> Any:
    """The ``ray`` package, or one line saying it is missing."""
    try:
        import ray  # noqa: PLC0415 (Ray loads only for a command given --ray)
    except ImportError:  # pragma: no cover - ray is a dependency
        raise BadInput("--ray needs the ray package (pip install ray)") from None
    return ray


def engine_version() -> str:
    """This mancala's version and a fingerprint of its engine's sources (what a Ray node must
    share with the driver, and a split proof's journal records: :mod:`mancala.engine.split_proof`)."""
    return _version()


def _version() -> str:
    """This process's mancala: its version and a fingerprint of its engine's sources (two
    nodes that differ there could build different databases)."""
    import hashlib  # noqa: PLC0415 (runs on a worker)
    from pathlib import Path  # noqa: PLC0415

    import mancala  # noqa: PLC0415

    digest = hashlib.sha256()
    for path in sorted((Path(mancala.__file__).resolve().parent / "engine").rglob("*.py")):
        digest.update(path.read_bytes())
    return f"{mancala.__version__} ({digest.hexdigest()[:12]})"


#: how long an address may take, in all, to connect and answer Ray's handshake before
#: ``--ray`` is refused
CONNECT_SECONDS = 5.0
#: what the probe sends: HTTP/2's client preface and an empty SETTINGS frame.  A Ray cluster's
#: address (its GCS, or the Ray Client server of ``ray://``) speaks gRPC, so HTTP/2: its first
#: frame is a SETTINGS frame (type 4 on stream 0), sent at once
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def check_address(address: str, timeout: float | None = None) -> None:
    """Raise :class:`BadInput` unless a Ray cluster answers at the address ``host:port``
    within ``timeout`` seconds (default :data:`CONNECT_SECONDS`): something must accept the
    connection and answer :data:`HTTP2_PREFACE` with an HTTP/2 SETTINGS frame, as Ray's gRPC
    does.  A wrong address, or a service that is not Ray (a web server, one that says nothing),
    is refused in one line at once, not after Ray's own minutes of retries, nor after the work
    was prepared."""
    address = address.removeprefix("ray://")
    host, sep, port_text = address.rpartition(":")
    if not sep or not host or not is_whole_number(port_text) or not 0 < int(port_text) < 65536:
        raise BadInput(f"--ray {address}: expected host:port (e.g. 10.0.0.5:6379) or 'local'")
    budget = CONNECT_SECONDS if timeout is None else timeout
    deadline = time.monotonic() + budget
    try:
        sock = socket.create_connection((host.strip("[]"), int(port_text)), timeout=budget)
    except OSError as e:
        reason = "no answer" if isinstance(e, TimeoutError) else (e.strerror or str(e))
        raise BadInput(
            f"--ray {address}: cannot reach a Ray cluster there ({reason}); start it "
            f"('ray start --head') or check the address"
        ) from None
    with sock:
        head = _first_frame(sock, deadline)
    if head is None or len(head) < 9 or head[3] != 4 or head[5:9] != bytes(4):
        said = "no answer to Ray's handshake" if head is None else "it does not speak Ray's protocol (gRPC)"
        raise BadInput(
            f"--ray {address}: something answers there but it is not a Ray cluster ({said} within {budget:g} s); "
            f"give the address 'ray start --head' printed (port 6379 by default)"
        )


def _first_frame(sock: socket.socket, deadline: float) -> bytes | None:
    """The first 9 bytes (an HTTP/2 frame's header) ``sock`` sends back to
    :data:`HTTP2_PREFACE`: fewer when it closes, fails or falls silent first, None when it
    says nothing before ``deadline`` (``time.monotonic``)."""
    head = b""
    try:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        sock.sendall(HTTP2_PREFACE)
        while len(head) < 9:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            more = sock.recv(9 - len(head))
            if not more:
                break
            head += more
    except TimeoutError:
        return head or None  # (a few bytes, then silence: an answer, and not Ray's)
    except OSError:  # reset by the other side: an answer, and not Ray's
        pass
    return head


@contextlib.contextmanager
def connected(address: str, workers: int | None = None, *, ship_package: bool = False) -> Iterator[Any]:
    """Ray, connected to the cluster at ``address`` for the ``with`` block (``local``: a Ray of
    ``workers`` CPUs on this machine, shut down afterwards).  A driver already connected
    (``ray.is_initialized()``) is used as it is and left connected.  ``ship_package`` sends this
    mancala to the workers as a runtime environment instead of checking theirs.  A failure of
    the cluster during the block (a node, a worker or one of Ray's own processes dying: any
    ``ray.exceptions.RayError`` but one of ours raised in a task) is one :class:`BadInput`
    line saying so, not Ray's traceback."""
    ray = ray_module()
    if not address.strip():
        raise BadInput("--ray is empty; give a cluster address (host:port) or 'local'")
    started = False
    if not ray.is_initialized():
        if address != "local":
            check_address(address)
        try:
            if address == "local":
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            elif ship_package:
                from pathlib import Path  # noqa: PLC0415

                import mancala  # noqa: PLC0415

                package = str(Path(mancala.__file__).resolve().parent)
                ray.init(address=address, runtime_env={"py_modules": [package]}, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise BadInput(f"cannot reach the Ray cluster at {address}: {first}") from None
        started = True
    try:
        if address != "local" and not ship_package:
            check_versions(ray)
        yield ray
    except ray.exceptions.RayError as e:
        if isinstance(e, MancalaError):  # ours, raised in a task (Ray's error is also its cause's type)
            raise
        lines = [line.strip() for line in str(e).splitlines() if line.strip()]
        said = f"{type(e).__name__}: {lines[0][:200]}" if lines else type(e).__name__
        where = "this machine's Ray" if address == "local" else f"the Ray cluster at {address}"
        raise BadInput(
            f"{where} failed during the work ({said}); what was finished is kept (a build's shards, an "
            f"arena's results): run the same command again once the cluster is whole"
        ) from None
    finally:
        if started:
            ray.shutdown()


def check_versions(ray: Any) -> None:
    """Refuse a cluster whose nodes run another mancala than the driver (one line naming it)."""
    nodes = [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) > 0]
    if not nodes:
        raise BadInput("the Ray cluster has no node with a CPU to work on")
    ask = ray.remote(num_cpus=0)(_version)
    refs = []
    for node in nodes:
        strategy = ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
        refs.append(ask.options(scheduling_strategy=strategy).remote())
    try:
        versions = ray.get(refs, timeout=120)
    except Exception as e:  # noqa: BLE001 - any failure of a node to answer is one line
        raise BadInput(f"a node of the Ray cluster cannot import mancala: {type(e).__name__}") from None
    mine = _version()
    other = sorted({v for v in versions if v != mine})
    if other:
        raise BadInput(
            f"the Ray cluster's nodes run mancala {', '.join(other)} and this one {mine}; "
            "install the same version on every node"
        )
