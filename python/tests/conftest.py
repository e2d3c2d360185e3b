import socket

import pytest


@pytest.fixture
def free_addr():
    """A loopback address with a port that was free a moment ago (the
    connecting side retries, so the listener may start second)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"127.0.0.1:{port}"
