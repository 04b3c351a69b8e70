#!/usr/bin/env python3
"""Makes the small ROS maps in this folder from the full ones in ../shared/data/ros/: each is a
crop of the original image, shrunk by keeping the darkest pixel of every k x k block (so walls
stay closed), written in a different image format so that every reader is exercised. The map
files keep the originals' thresholds and mode; resolution and origin follow the crop.
Run from the repository root: python3 scenes/ros/make_small_maps.py"""
import struct
import zlib
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "ros"
HERE = Path(__file__).resolve().parent


def read_pgm(path):
    data = path.read_bytes()
    tokens, i = [], 2
    while len(tokens) < 3:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while data[i:i + 1] != b"\n":
                i += 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        tokens.append(int(data[i:j]))
        i = j
    width, height, maxval = tokens
    assert data[:2] == b"P5" and maxval == 255
    raster = data[i + 1:i + 1 + width * height]
    return width, height, [raster[r * width:(r + 1) * width] for r in range(height)]


def shrink(rows, col0, col1, row0, row1, k):
    out = []
    for r in range(row0, row1, k):
        out.append([min(rows[r + dr][c + dc] for dr in range(k) for dc in range(k))
                    for c in range(col0, col1, k)])
    return out


def write_p5(path, rows):
    header = f"P5\n# {path.name}: see README.md\n{len(rows[0])} {len(rows)}\n255\n".encode()
    path.write_bytes(header + b"".join(bytes(r) for r in rows))


def write_p2(path, rows, maxval):
    lines = [f"P2\n# {path.name}: see README.md\n{len(rows[0])} {len(rows)}\n{maxval}"]
    for r in rows:
        lines.append(" ".join(str(round(v * maxval / 255)) for v in r))
    path.write_text("\n".join(lines) + "\n")


def write_png(path, rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    ihdr = struct.pack(">IIBBBBB", len(rows[0]), len(rows), 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
                     chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def write_bmp(path, rows):
    width, height = len(rows[0]), len(rows)
    stride = (width + 3) // 4 * 4
    palette = b"".join(bytes((v, v, v, 0)) for v in range(256))
    pixels = b"".join(bytes(r) + b"\x00" * (stride - width) for r in reversed(rows))
    offset = 14 + 40 + len(palette)
    header = b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, 0, len(pixels), 2835, 2835, 256, 0)
    path.write_bytes(header + info + palette + pixels)


def make(name, source, yaml_lines, crop, k, writer, image_name):
    width, height, rows = read_pgm(SHARED / source)
    col0, col1, row0, row1 = crop
    small = shrink(rows, col0, col1, row0, row1, k)
    writer(HERE / image_name, small)
    res, ox, oy = yaml_lines["resolution"], yaml_lines["origin"][0], yaml_lines["origin"][1]
    origin = [round(ox + col0 * res, 9), round(oy + (height - row1) * res, 9), 0]
    text = [f"image: {image_name}"]
    if "mode" in yaml_lines:
        text.append(f"mode: {yaml_lines['mode']}")
    text += [f"resolution: {round(res * k, 9)}", f"origin: {origin}",
             f"negate: {yaml_lines['negate']}", f"occupied_thresh: {yaml_lines['occupied_thresh']}",
             f"free_thresh: {yaml_lines['free_thresh']}"]
    (HERE / f"{name}.yaml").write_text("\n".join(text) + "\n")


tb3 = {"resolution": 0.05, "origin": [-10.0, -10.0], "negate": 0, "occupied_thresh": 0.65,
       "free_thresh": 0.196}
make("turtlebot3_world", "turtlebot3_world/map.pgm", tb3, (136, 260, 128, 240), 2,
     lambda p, r: write_p2(p, r, 15), "turtlebot3_world.pgm")
make("tb3_sandbox", "nav2_tb3_sandbox/tb3_sandbox.pgm", tb3, (136, 260, 128, 240), 2, write_bmp,
     "tb3_sandbox.bmp")
make("depot", "nav2_depot/depot.pgm",
     {"mode": "trinary", "resolution": 0.05, "origin": [0.0, 0.0], "negate": 0,
      "occupied_thresh": 0.65, "free_thresh": 0.25}, (300, 604, 0, 304), 4, write_p5, "depot.pgm")
make("warehouse", "nav2_warehouse/warehouse.pgm",
     {"mode": "trinary", "resolution": 0.03, "origin": [-15.1, -25.0], "negate": 0,
      "occupied_thresh": 0.65, "free_thresh": 0.1}, (0, 504, 1000, 1672), 4, write_png,
     "warehouse.png")
