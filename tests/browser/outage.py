"""A venue's Wi-Fi between the browser and the server, which a test can cut and restore.

Playwright's offline emulation (``context.set_offline``) fails the page's HTTP requests and
fires its ``offline`` event, but open WebSockets keep working through it (microsoft/playwright
issue #4910). A Wi-Fi outage does not close them either: it silences them. So the board page is
served through this TCP relay, which a test cuts in one of two ways:

- ``holds`` (the default, as TCP does over real Wi-Fi): what the page and the server write
  into open connections during the cut is kept, and delivered in order when the network
  returns, the page's late pings and the closing of a socket it gave up on included;
  connections opened during the cut reach the server only then. Nothing is closed by the cut.
- ``drops``: bytes of open connections are read and dropped in both directions (nothing
  closes, as when a Wi-Fi drops), and new connections are closed at once; ``restore`` closes
  the connections that lived through the cut (their streams lost data, as a real one that
  outlived its TCP timeouts would).

``lag_s`` holds back what the server sends, as a Wi-Fi does in a busy moment.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

from bench.servers import free_port

HOLDS, DROPS = "holds", "drops"


class _Direction:
    """One direction of a relayed connection: bytes from ``source`` to ``sink``, kept while the
    network is cut in ``holds`` mode (``sink`` is None until a connection opened during a cut
    reaches the server)."""

    def __init__(self, outage: Outage, source: socket.socket, sink: socket.socket | None,
                 lags: bool) -> None:
        self.outage, self.source, self.sink, self.lags = outage, source, sink, lags
        self.lock = threading.Lock()
        self.held: list[bytes] = []
        self.ended = False  # the source closed: the sink is shut once what was held is out

    def start(self) -> None:
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        with contextlib.suppress(OSError):
            while data := self.source.recv(65536):
                if self.lags and self.outage.lag_s:
                    time.sleep(self.outage.lag_s)
                with self.lock:
                    if self.outage.cut_off.is_set():
                        if self.outage.mode == HOLDS:
                            self.held.append(data)
                        continue  # dropped
                    self._deliver(data)
        with self.lock:
            self.ended = True
            if not self.outage.cut_off.is_set():
                self._end()

    def _deliver(self, data: bytes) -> None:
        if self.held:
            self.sink.sendall(b"".join(self.held))
            self.held.clear()
        if data:
            self.sink.sendall(data)

    def _end(self) -> None:
        _close(self.source, *([] if self.sink is None else [self.sink]))

    def flush(self) -> None:
        """The network is back: what was kept goes out, in order."""
        with self.lock, contextlib.suppress(OSError):
            self._deliver(b"")
            if self.ended:
                self._end()


class _Pair:
    """A relayed connection: the browser's side, the server's (None while a connection opened
    during a cut has not reached it), and the two directions between them."""

    def __init__(self, client: socket.socket, upstream: socket.socket | None) -> None:
        self.client, self.upstream = client, upstream
        self.directions: list[_Direction] = []

    def close(self) -> None:
        _close(self.client, *([] if self.upstream is None else [self.upstream]))


class Outage:
    def __init__(self, target_port: int, mode: str = HOLDS) -> None:
        self.target = ("127.0.0.1", target_port)
        self.mode = mode
        self.port = free_port()
        self.cut_off = threading.Event()
        self.lock = threading.Lock()
        self.pairs: list[_Pair] = []
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.listener.settimeout(0.2)
        self.stopped = threading.Event()
        self.lag_s = 0.0
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cut(self) -> None:
        self.cut_off.set()

    def restore(self) -> None:
        """The network is back: held bytes are delivered in order (``holds``), or the
        connections that lived through the cut are closed (``drops``)."""
        with self.lock:
            pairs = list(self.pairs)
            if self.mode == DROPS:
                self.pairs = []
        if self.mode == DROPS:
            for pair in pairs:
                pair.close()
            self.cut_off.clear()
            return
        for pair in pairs:
            if pair.upstream is None:  # opened during the cut: it reaches the server now
                self._connect(pair)
        self.cut_off.clear()  # a byte read from now on goes out after the held ones
        for pair in pairs:
            for direction in pair.directions:
                direction.flush()

    def _connect(self, pair: _Pair) -> None:
        outgoing = pair.directions[0]
        if outgoing.ended and not outgoing.held:  # the browser gave up before it got through
            return
        try:
            pair.upstream = socket.create_connection(self.target)
        except OSError:
            pair.close()
            return
        outgoing.sink = pair.upstream
        back = _Direction(self, pair.upstream, pair.client, True)
        pair.directions.append(back)
        back.start()

    def stop(self) -> None:
        self.stopped.set()
        self.mode = DROPS
        self.restore()
        self.listener.close()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _address = self.listener.accept()
            except (TimeoutError, OSError):
                continue
            if self.cut_off.is_set() and self.mode == DROPS:
                client.close()
                continue
            pair = _Pair(client, None)
            if not self.cut_off.is_set():
                try:
                    pair.upstream = socket.create_connection(self.target)
                except OSError:
                    client.close()
                    continue
            pair.directions.append(_Direction(self, client, pair.upstream, False))
            if pair.upstream is not None:
                pair.directions.append(_Direction(self, pair.upstream, client, True))
            with self.lock:
                self.pairs.append(pair)
            for direction in pair.directions:
                direction.start()


def _close(*sockets: socket.socket) -> None:
    for s in sockets:
        with contextlib.suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)
        s.close()
