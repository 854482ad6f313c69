"""Every claim's certificate: its schema (the fields its check always writes, with their types)
and its recheck, gathered from the claims' modules."""
from . import a2, b1, c1, d0, d1, experiments, g1, l1, p1, r1, s1, t1, t2, t3, t4, x8
from .readings import PROVENANCE, READING, decision_text
from .schema import boolean, list_of, obj, one_of, text, verdict_text


CLAIM_IDS = ("P1", "A2", "T1a", "T1b", "T1c", "T1u", "T2a", "T2b", "T2c", "T3", "T3m", "T4", "T4u", "T4m", "S1", "D0",
             "D1", "C1", "R1", "X1", "G1", "X8",
             "L1", "B1", "E1", "E2", "E3", "E4", "E5")


DATA_SCHEMA = {**p1.DATA, **a2.DATA, **t1.DATA, **t2.DATA, **t3.DATA, **t4.DATA, **d0.DATA, **c1.DATA,
               **r1.DATA, **l1.DATA, **s1.DATA, **d1.DATA, **g1.DATA, **x8.DATA, **b1.DATA,
               **experiments.DATA}
# The claims rechecked from the certificate alone; E1–E5 also read the results CSV
# (experiments.recheck_experiment).
CLAIM_RECHECKS = {"P1": p1.recheck_p1, "A2": a2.recheck_a2, "T1a": t1.recheck_t1a, "T1b": t1.recheck_t1b,
                  "T1c": t1.recheck_t1c, "T1u": t1.recheck_t1u, "T2a": t2.recheck_t2a, "T2b": t2.recheck_t2b,
                  "T2c": t2.recheck_t2c, **t3.RECHECKS, "T4": t4.recheck_t4, "T4u": t4.recheck_t4u,
                  "T4m": t4.recheck_t4m, "S1": s1.recheck_s1, "D0": d0.recheck_d0, "D1": d1.recheck_d1,
                  "C1": c1.recheck_c1, **r1.RECHECKS, "L1": l1.recheck_l1, **g1.RECHECKS,
                  "X8": x8.recheck_x8, "B1": b1.recheck_b1}


def certificate_schema(claim):
    return obj({"id": one_of(claim), "verdict": decision_text, "check_verdict": verdict_text, "finding": text,
                "grid": one_of("paper", "quick"), "coq_checked": boolean, "provenance": PROVENANCE,
                "readings": list_of(READING), "data": DATA_SCHEMA[claim]})
