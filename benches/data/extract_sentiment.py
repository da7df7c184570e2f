#!/usr/bin/env python3
"""Write examples/sentiment/labelled.jsonl: a stratified sample of VADER's human-rated sentences.

Download the package's source distribution (the wheel leaves the rated data out), then run
from the repository root:

    pip download --no-deps --no-binary :all: -d /tmp vadersentiment==3.3.2
    python3 benches/data/extract_sentiment.py /tmp/vaderSentiment-3.3.2.tar.gz

Standard library only. The output is the same on every run: the tarball is checked against
its SHA-256, and the sample is chosen by ranking sentences on SHA-256 of a fixed seed and
their ID, not by a random generator.

The label is each text's MEAN-SENTIMENT-RATING in the package's *_GroundTruth.txt files:
the mean of at least 20 human raters on a scale from -4 (extremely negative) to +4
(extremely positive). The questions' answers are bands of that mean (see LEVELS).
"""

import hashlib
import io
import json
import sys
import tarfile
from collections import Counter
from pathlib import Path

TARBALL_SHA256 = "5d7c06e027fc8b99238edb0d53d970cf97066ef97654009890b83703849632f9"
INNER = "vaderSentiment-3.3.2/additional_resources/hutto_ICWSM_2014.tar.gz"
OUT = Path(__file__).resolve().parents[2] / "examples" / "sentiment" / "labelled.jsonl"
SEED = "arbiter-quality-sentiment-1"
# Source name in example IDs -> file in hutto_ICWSM_2014/.
SOURCES = {
    "tweet": "tweets_GroundTruth.txt",
    "movie": "movieReviewSnippets_GroundTruth.txt",
    "amazon": "amazonReviewSnippets_GroundTruth.txt",
    "nyt": "nytEditorialSnippets_GroundTruth.txt",
}
# States per (source, level): 4 sources x 5 levels x 24 = 480.
PER_CELL = 24
# Score levels of the mean rating: (upper bound, exclusive unless noted), in order.
#   0 very negative: mean <= -2      1 negative: -2 < mean <= -0.5
#   2 neutral: -0.5 < mean < 0.5     3 positive: 0.5 <= mean < 2
#   4 very positive: mean >= 2
POLARITY = ["negative", "negative", "neutral", "positive", "positive"]


def level(mean):
    if mean <= -2:
        return 0
    if mean <= -0.5:
        return 1
    if mean < 0.5:
        return 2
    if mean < 2:
        return 3
    return 4


def rank(key):
    return hashlib.sha256(f"{SEED}:{key}".encode()).hexdigest()


def read_rows(data):
    """(id, mean, text) per line of a GroundTruth file (tab-separated, CRLF, some UTF-8)."""
    text = data.decode("utf-8-sig", errors="replace")
    for line in text.splitlines():
        fields = line.split("\t")
        if len(fields) < 3 or not fields[2].strip():
            continue
        yield fields[0].strip(), float(fields[1]), " ".join("\t".join(fields[2:]).split())


def main():
    tarball = Path(sys.argv[1] if len(sys.argv) > 1 else "vaderSentiment-3.3.2.tar.gz")
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    if digest != TARBALL_SHA256:
        sys.exit(f"{tarball}: SHA-256 {digest}, expected {TARBALL_SHA256} (version 3.3.2)")

    with tarfile.open(tarball, "r:gz") as outer:
        inner_bytes = outer.extractfile(INNER).read()
    cells = {}
    available = Counter()
    with tarfile.open(fileobj=io.BytesIO(inner_bytes), mode="r:gz") as inner:
        for source, name in SOURCES.items():
            data = inner.extractfile(f"hutto_ICWSM_2014/{name}").read()
            seen = set()
            for ident, mean, text in read_rows(data):
                if text in seen:
                    continue
                seen.add(text)
                cell = (source, level(mean))
                available[cell] += 1
                cells.setdefault(cell, []).append((ident, mean, text))

    rows = []
    for source in SOURCES:
        for lvl in range(5):
            pool = sorted(cells[(source, lvl)], key=lambda r: rank(f"{source}:{r[0]}"))
            if len(pool) < PER_CELL:
                sys.exit(f"{source} level {lvl}: only {len(pool)} texts, {PER_CELL} wanted")
            rows.extend((source, lvl, r) for r in pool[:PER_CELL])
    rows.sort(key=lambda r: (list(SOURCES).index(r[0]), rank(f"{r[0]}:{r[2][0]}")))

    with OUT.open("w", encoding="utf-8", newline="\n") as out:
        for source, lvl, (ident, mean, text) in rows:
            why = f"mean human rating {mean:.3f} on -4..+4"
            row = {
                "example_id": f"vader-{source}-{ident}",
                "state": {"text": text},
                "annotations": {
                    "sentiment": {"answer": lvl, "reasoning": why},
                    "polarity": {"answer": POLARITY[lvl], "reasoning": why},
                    "negative": {"answer": lvl <= 1, "reasoning": why},
                },
            }
            out.write(json.dumps(row, ensure_ascii=False) + "\n")

    print(f"wrote {len(rows)} states to {OUT.name} ({OUT.stat().st_size:,} bytes)")
    for source in SOURCES:
        counts = [available[(source, lvl)] for lvl in range(5)]
        print(f"  {source}: available per level {counts}, {PER_CELL} sampled per level")
    print("  polarity:", dict(Counter(POLARITY[r[1]] for r in rows)))
    print("  negative:", dict(Counter(r[1] <= 1 for r in rows)))


if __name__ == "__main__":
    main()
