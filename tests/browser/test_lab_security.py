"""The server `make lab` starts (course_lib.core.tools.lab.lab_arguments, nothing added) refuses API calls
without its token and cannot be reached from another machine. Needs no browser."""

from __future__ import annotations

import secrets
import shutil
import socket
import tempfile
from pathlib import Path

import pytest
from labserver import LabServer

pytestmark = pytest.mark.browser

LOOPBACK = "0100007F"  # 127.0.0.1 as /proc/net/tcp writes it
LISTEN = "0A"


@pytest.fixture(scope="module")
def make_lab_server():
    server = LabServer(Path(tempfile.mkdtemp(prefix="ffn-course-lab-")), secrets.token_hex(16))
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.home, ignore_errors=True)


def listening_addresses(port: int) -> list[str]:
    """Local addresses (hex, as the kernel lists them) of sockets listening on ``port``."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:] if Path(table).exists() else []:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state == LISTEN and int(hex_port, 16) == port:
                found.append(address)
    return found


def outward_address() -> str | None:
    """This machine's address towards the network (no packet is sent), or None if it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing only
            return probe.getsockname()[0]
        except OSError:
            return None


@pytest.mark.parametrize("path", ["/api/contents", "/api/kernels", "/api/sessions"])
def test_lab_api_answers_403_without_the_token(make_lab_server, path):
    assert make_lab_server.request("GET", path, with_token=False)[0] == 403
    assert make_lab_server.request("GET", path, with_token=True)[0] == 200


def test_lab_listens_on_127_0_0_1_only(make_lab_server):
    port = make_lab_server.port
    if Path("/proc/net/tcp").exists():
        assert listening_addresses(port) == [LOOPBACK], listening_addresses(port)
    address = outward_address()
    if address and not address.startswith("127."):
        with pytest.raises(OSError), socket.create_connection((address, port), timeout=2):
            pass
