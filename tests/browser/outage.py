"""A venue's Wi-Fi between the browser and the server, which a test can cut and restore.

Playwright's offline emulation (``context.set_offline``) fails the page's HTTP requests and
fires its ``offline`` event, but open WebSockets keep working through it (microsoft/playwright
issue #4910). A Wi-Fi outage does not close them either: it silences them. So the board page is
served through this TCP relay, and ``cut`` black-holes it: bytes of open connections are read
and dropped in both directions (nothing closes, as when a Wi-Fi drops), and new connections are
closed at once. ``restore`` closes the connections that lived through the cut (their streams
lost data, as a real one that outlived its TCP timeouts would) and relays again. ``lag_s``
holds back what the server sends, as a Wi-Fi does in a busy moment.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

from clocks.benchsupport import free_port


class Outage:
    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.port = free_port()
        self.cut_off = threading.Event()
        self.lock = threading.Lock()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
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
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            _close(*pair)
        self.cut_off.clear()

    def stop(self) -> None:
        self.stopped.set()
        self.restore()
        self.listener.close()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _address = self.listener.accept()
            except (TimeoutError, OSError):
                continue
            if self.cut_off.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, upstream))
            for source, sink, lags in ((client, upstream, False), (upstream, client, True)):
                threading.Thread(target=self._relay, args=(source, sink, lags),
                                 daemon=True).start()

    def _relay(self, source: socket.socket, sink: socket.socket, lags: bool) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if lags and self.lag_s:
                    time.sleep(self.lag_s)
                if not self.cut_off.is_set():  # during a cut the bytes are lost
                    sink.sendall(data)
        _close(source, sink)


def _close(*sockets: socket.socket) -> None:
    for s in sockets:
        with contextlib.suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)
        s.close()
