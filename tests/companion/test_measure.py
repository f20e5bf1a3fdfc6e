"""companion.measure: the committed companion/measurements.json must be what the code measures
today (two layouts are measured again and must agree exactly; if this fails after a change to
companion/, run `npm run companion:measure`), and unsupported layouts are refused by name.
"""
import contextlib
import io
import json
import os
import unittest

from companion.crosscheck import GRID, MICRO_BATCH, SEQ
from companion.measure import measure_many, parse, setup_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AGAIN = [("tiny.json", ["--dp", "2", "--zero", "3"]), ("tiny.json", ["--tp", "2", "--sp"])]


class MeasureTest(unittest.TestCase):
    def test_committed_measurements_are_current(self):
        with open(os.path.join(ROOT, "companion", "measurements.json")) as f:
            entries = json.load(f)["entries"]
        self.assertEqual(len(entries), len(GRID), "measurements.json and crosscheck.GRID differ: run npm run companion:measure")
        setups = []
        for config, flags in AGAIN:
            args = parse(["--config", os.path.join(ROOT, "companion", "configs", config), "--seq", str(SEQ),
                          "--micro-batch", str(MICRO_BATCH), *flags])
            world, setup = setup_of(args)
            self.assertEqual(world, 2)
            setups.append(setup)
        for (config, flags), ranks in zip(AGAIN, measure_many(2, setups)):
            committed = next(e for e in entries if e["command"].endswith(" ".join([config, "--seq", str(SEQ), "--micro-batch", str(MICRO_BATCH), *flags])))
            self.assertEqual(json.loads(json.dumps(ranks)), committed["ranks"], f"{config} {' '.join(flags)}: run npm run companion:measure")

    def test_one_form_of_parallelism_at_a_time(self):
        for flags, message in [(["--tp", "2", "--pp", "2"], "one form of parallelism at a time"),
                               (["--ep", "2"], "--ep must equal --dp"), (["--sp"], "--sp needs --tp")]:
            with self.subTest(flags=flags), contextlib.redirect_stderr(io.StringIO()):
                with self.assertRaises(SystemExit) as raised:
                    setup_of(parse(["--config", os.path.join(ROOT, "companion", "configs", "tiny.json"), "--seq", "8", "--micro-batch", "1", *flags]))
                self.assertIn(message, str(raised.exception.code))


if __name__ == "__main__":
    unittest.main()
