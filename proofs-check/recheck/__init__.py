"""Independent recheck of the audit's certificates (DIR/certificates/<ID>.json), laid out as the
checks it mirrors: one module per claim or per group of claims of one theorem (p1, a2, t1, t2, t3,
t4, s1, d0, d1, c1, r1, l1, g1, x8, b1, experiments; t3_scale beside t3, as t3_scale.cpp beside
check_t3.cpp), each with its certificate's schema (DATA) and its recheck, over shared helpers:
limits, report, schema, untrusted (reading DIR), ledger (which fields a recheck reads), exact
(fractions and decimals), algorithm2 (its closed forms and enumeration), utility, pldp, ucdp, pld
(T3's accountant), common, witness, readings, grids; claims gathers them and driver runs them. proofs-check/recheck_certificates.py
is the entry point and states the command line.

Nothing here calls the C++ library. Each certificate that proofs-check/check_<id>.cpp writes is
first held against a schema (the fields its check always writes, with their types), then every
value that can be recomputed from the certificate's own content is recomputed from the paper's
definitions, and every verdict is re-derived from the recomputed facts with the rule its check
applies. Rational data stay exact (fractions.Fraction); where a logarithm or a square root enters
(T3, T4) the arithmetic is decimal at kWorkDigits significant digits and compared with the
certificate's enclosures. The three readings of Algorithm 2 (corrected, as-printed,
reference-code) are implemented from the paper and REFERENCES.md twice: an O(1) closed form over
the threshold cells, and an enumeration of every shared vector Z for small d; the two are
compared wherever both run.

A certificate names its grid ("paper" or "quick"), which this script knows (grids.GRIDS, as
common.cpp defines them): counts over the grid are recounted point by point. T3's certified
two-sided bounds on the privacy loss of m·T compositions at the paper's model sizes are held
against this script's own (pld.py: privacy-loss distributions discretised pessimistically and
optimistically, composed by squaring, and Rényi moments). What it cannot recompute is not
pretended: every run lists each such group of values as "not recomputable from the
certificate", with what would be needed, the summary line counts them, and the run fails
(status 3). On the audit's certificates there is none.
"""
