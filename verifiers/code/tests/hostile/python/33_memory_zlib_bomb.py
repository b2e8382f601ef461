# expect: time_limit
import zlib
d = zlib.compressobj()
blob = d.compress(b'\0' * (1 << 24)) + d.flush()
parts = []
while True:
    parts.append(zlib.decompress(blob))
