"""Measure a grid of small layouts and write companion/measurements.json, which the book's tests
compare with its model (tests/companion/crosscheck.test.ts) and its chapters show as tables.

  npm run companion:measure      (= python3 -m companion.crosscheck, with an interpreter that has torch)

Each entry holds the flags given to companion.measure, the same setup in the book's model's terms
(src/model/memory.ts TrainingSetup, fp32), and what every rank measured.
"""
import json
import os
import sys
from collections import defaultdict

from .measure import measure_many, parse, setup_of

SEQ, MICRO_BATCH = 32, 2
GRID = [  # (config file in companion/configs, extra flags)
    ("tiny.json", []),
    ("tiny.json", ["--recompute", "full"]),
    ("tiny.json", ["--dp", "2"]),
    ("tiny.json", ["--dp", "4"]),
    ("tiny.json", ["--dp", "2", "--microbatches", "2"]),
    ("tiny.json", ["--dp", "2", "--zero", "1"]),
    ("tiny.json", ["--dp", "2", "--zero", "2", "--microbatches", "2"]),
    ("tiny.json", ["--dp", "2", "--zero", "3"]),
    ("tiny.json", ["--dp", "4", "--zero", "3", "--microbatches", "2"]),
    ("tiny.json", ["--tp", "2"]),
    ("tiny.json", ["--tp", "4"]),
    ("tiny.json", ["--tp", "2", "--sp"]),
    ("tiny.json", ["--tp", "4", "--sp"]),
    ("tiny.json", ["--tp", "2", "--recompute", "full"]),
    ("tiny-gqa.json", ["--tp", "2"]),
    ("tiny.json", ["--pp", "2"]),
    ("tiny.json", ["--pp", "4", "--microbatches", "4"]),
    ("tiny.json", ["--pp", "4", "--microbatches", "4", "--schedule", "afab"]),
    ("tiny.json", ["--cp", "2"]),
    ("tiny.json", ["--cp", "4"]),
    ("tiny-gqa.json", ["--cp", "2"]),
    ("tiny.json", ["--cp", "2", "--recompute", "full"]),
    ("tiny-moe.json", ["--dp", "2", "--ep", "2"]),
    ("tiny-moe.json", ["--dp", "4", "--ep", "4"]),
    ("tiny-moe.json", ["--dp", "2", "--ep", "2", "--recompute", "full"]),
]


def book_setup(args):
    """The same step as the book's model reads it (attention: eager softmax, except the ring
    attention of context parallelism, which keeps no scores, like FlashAttention)."""
    return {
        "seqLength": args.seq, "microBatchSize": args.micro_batch, "dp": args.dp, "tp": args.tp,
        "sequenceParallel": args.sp, "pp": args.pp, "cp": args.cp, "ep": args.ep, "zeroStage": args.zero,
        "recompute": args.recompute, "precision": "fp32", "schedule": args.schedule,
        "microbatches": args.microbatches or args.pp, "attention": "flash" if args.cp > 1 else "eager",
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    entries, by_world = [], defaultdict(list)
    for config, flags in GRID:
        argv = ["--config", os.path.join(here, "configs", config), "--seq", str(SEQ), "--micro-batch", str(MICRO_BATCH), *flags]
        args = parse(argv)
        world, setup = setup_of(args)
        command = " ".join(["python3 -m companion.measure --config", f"companion/configs/{config}"] + argv[2:])
        entries.append({"config": config, "command": command, "setup": book_setup(args)})
        by_world[world].append((len(entries) - 1, setup))
    for world, items in sorted(by_world.items()):
        print(f"measuring {len(items)} layouts on {world} process(es)", file=sys.stderr)
        for (index, _), ranks in zip(items, measure_many(world, [s for _, s in items])):
            entries[index]["ranks"] = ranks
    path = os.path.join(here, "measurements.json")
    with open(path, "w") as f:
        json.dump({"generatedBy": "npm run companion:measure", "precision": "fp32", "entries": entries}, f, indent=1)
        f.write("\n")
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
