"""Each companion program, run on 2 and on 4 processes, must train exactly like the single-process
model: the same loss at every step and the same parameters after 3 Adam steps of 2 microbatches
(float64; tolerance 1e-12 absolute, where the observed differences are about 1e-15, the rounding of
sums taken in another order). All scenarios of one world size share one set of processes.

Run: /usr/bin/python3 -m unittest discover -s tests/companion (or npm run test:companion)
"""
import unittest

from companion.harness import TINY, TINY_MOE, compare_many

TOLERANCE = 1e-12
TINY_GQA = dict(TINY, num_key_value_heads=2)
TINY_ODD = dict(TINY, num_hidden_layers=3)  # 3 layers on 2 stages: the first stage takes 2

SCENARIOS = {  # label: (program, options, config, world sizes)
    "dp": ("dp", {}, TINY, (2, 4)),
    "zero1": ("zero", {"stage": 1}, TINY, (2, 4)),
    "zero2": ("zero", {"stage": 2}, TINY, (2, 4)),
    "zero3": ("zero", {"stage": 3}, TINY, (2, 4)),
    "tp": ("tp", {}, TINY, (2, 4)),
    "tp-gqa": ("tp", {}, TINY_GQA, (2,)),
    "sp": ("tp", {"sp": True}, TINY, (2, 4)),
    "pp-afab": ("pp", {"schedule": "afab"}, TINY, (2, 4)),
    "pp-1f1b": ("pp", {"schedule": "1f1b"}, TINY, (2, 4)),
    "pp-uneven": ("pp", {"schedule": "1f1b"}, TINY_ODD, (2,)),
    "cp": ("cp", {}, TINY, (2, 4)),
    "cp-gqa": ("cp", {}, TINY_GQA, (2,)),
    "ep": ("ep", {}, TINY_MOE, (2, 4)),
}


class ExactnessTest(unittest.TestCase):
    reports = {}

    @classmethod
    def setUpClass(cls):
        for world in (2, 4):
            labels = [label for label, s in SCENARIOS.items() if world in s[3]]
            scenarios = [SCENARIOS[label][:3] for label in labels]
            for label, report in zip(labels, compare_many(world, scenarios)):
                cls.reports[(label, world)] = report

    def check(self, label):
        for world in SCENARIOS[label][3]:
            with self.subTest(world=world):
                report = self.reports[(label, world)]
                self.assertEqual(report["missing"], [], "every parameter must come back from some rank")
                self.assertLess(report["lossError"], TOLERANCE)
                self.assertLess(report["parameterError"], TOLERANCE)

    def test_data_parallel_with_bucketed_all_reduce_and_accumulation(self):
        self.check("dp")

    def test_zero_stage_1(self):
        self.check("zero1")

    def test_zero_stage_2(self):
        self.check("zero2")

    def test_zero_stage_3(self):
        self.check("zero3")

    def test_tensor_parallel(self):
        self.check("tp")

    def test_tensor_parallel_with_grouped_query_attention(self):
        self.check("tp-gqa")

    def test_sequence_parallel(self):
        self.check("sp")

    def test_pipeline_afab(self):
        self.check("pp-afab")

    def test_pipeline_1f1b(self):
        self.check("pp-1f1b")

    def test_pipeline_uneven_layer_split(self):
        self.check("pp-uneven")

    def test_context_parallel_ring_attention(self):
        self.check("cp")

    def test_context_parallel_with_grouped_query_attention(self):
        self.check("cp-gqa")

    def test_expert_parallel(self):
        self.check("ep")


if __name__ == "__main__":
    unittest.main()
