#!/usr/bin/env python3
"""conn-load: connections to a file-service port for bench/sampler-cost.

usage: conn-load PORT IDLE ACTIVE SECONDS MBPS

Listens on 127.0.0.1:PORT (an iSCSI or AFP port nasperfd watches), opens
IDLE connections from 127.0.0.1 that stay silent, and ACTIVE ones, each
from its own address (127.0.0.2, 127.0.0.3, ...: a client each), to which
the server sends MBPS Mbit/s, for SECONDS; then closes them all.
"""
import asyncio
import sys
import time

CHUNK = 65536


async def serve(reader, writer, mbps, until):
    try:
        await serve1(reader, writer, mbps, until)
    except (asyncio.CancelledError, ConnectionError):
        pass


async def serve1(reader, writer, mbps, until):
    first = await reader.read(1)
    if first != b"A":
        await reader.read()             # idle: until the client closes
        writer.close()
        return
    rate = mbps * 1e6 / 8
    buf = b"\0" * CHUNK
    sent, t0 = 0, time.monotonic()
    try:
        while time.monotonic() < until:
            ahead = sent / rate - (time.monotonic() - t0)
            if ahead > 0:
                await asyncio.sleep(ahead)
            writer.write(buf)
            await writer.drain()
            sent += CHUNK
    except ConnectionError:
        pass
    writer.close()


async def drain(reader):
    try:
        while await reader.read(1 << 20):
            pass
    except (asyncio.CancelledError, ConnectionError):
        pass


async def main():
    port, idle, active, secs, mbps = (int(sys.argv[1]), int(sys.argv[2]),
                                      int(sys.argv[3]), float(sys.argv[4]),
                                      float(sys.argv[5]))
    until = time.monotonic() + secs
    server = await asyncio.start_server(
        lambda r, w: serve(r, w, mbps, until), "127.0.0.1", port)
    conns, tasks = [], []
    for _ in range(idle):
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(b"I")
        conns.append(w)
    for i in range(active):
        r, w = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=("127.0.0.%d" % (2 + i), 0))
        w.write(b"A")
        conns.append(w)
        tasks.append(asyncio.create_task(drain(r)))
    print("conn-load: %d idle, %d active" % (idle, active), flush=True)
    await asyncio.sleep(max(0.0, until - time.monotonic()))
    for w in conns:
        w.close()
    server.close()
    for t in tasks:
        t.cancel()


asyncio.run(main())
