#!/usr/bin/env bash
# The Coq check must be able to fail. Each mutant changes one statement, constant or proof of a
# compiled copy and must then be rejected by check.sh: by Coq (a statement no longer matches its
# proof), by the scan for admitted proofs and assumptions, or by the assumptions check.
# Usage: mutation_test.sh SOURCE_DIR BUILT_DIR   (BUILT_DIR: where check.sh compiled SOURCE_DIR)
set -uo pipefail
src=$1 built=$2
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$built/Defs.vo" ] || { echo "mutation: $built holds no compiled copy (run check.sh first)"; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
failures=0 n=0

# mutant FILE REASON DESCRIPTION PERL_EXPRESSION: apply the expression to FILE (it must change it),
# then recompile FILE and what follows it; the check must fail, for the expected REASON (a regular
# expression matched against check.sh's output), not for some unrelated breakage.
mutant() {
  local file=$1 reason=$2 what=$3 expr=$4
  n=$((n + 1))
  rm -rf "$work/src" "$work/out"; cp -r "$src" "$work/src"; cp -r "$built" "$work/out"
  perl -0pi -e "$expr" "$work/src/$file"
  if cmp -s "$src/$file" "$work/src/$file"; then
    echo "mutation $n ($file: $what): the mutation does not apply; the test is stale"; failures=$((failures + 1)); return
  fi
  if bash "$here/check.sh" "$work/src" "$work/out" "$file" > "$work/log" 2>&1; then
    echo "mutation $n ($file: $what): NOT rejected"; failures=$((failures + 1))
  elif ! grep -qE "$reason" "$work/log"; then
    echo "mutation $n ($file: $what): rejected, but not for the expected reason ($reason):"
    tail -5 "$work/log"; failures=$((failures + 1))
  else
    echo "mutation $n ($file: $what): rejected ($(grep -m1 -oE "$reason" "$work/log"))"
  fi
}

# A verdict's direction: a refuted reading pinned as proved must not compile.
mutant Verdicts.v 'does not compile' "T1b's printed reading pinned as holding" \
  's/Theorem fails__T1b__printed : ~ Thm1.T1b_claim\./Theorem holds__T1b__printed : Thm1.T1b_claim./'

# Statements and constants.
mutant Defs.v  'does not compile' "LDPQ's probability: 1/2 + (w−c)/(2rα) becomes 1/3 + ..." \
  's/Definition ldpq_q \(a c r w : R\) : R := 1 \/ 2/Definition ldpq_q (a c r w : R) : R := 1 \/ 3/'
mutant Thm1.v  'does not compile' "Theorem 1's constant 2^6 becomes 2^8" \
  's/Definition thm1_bound \(d : nat\) \(e r : R\) : R := 64/Definition thm1_bound (d : nat) (e r : R) : R := 256/'
mutant A2.v    'does not compile' "the counterexample's value 1/16 becomes 1/15" \
  's/printed_q2_plus 1 e 1 1 1 \(9 \/ 8\) = 1 \/ 16\./printed_q2_plus 1 e 1 1 1 (9 \/ 8) = 1 \/ 15./'
mutant P1.v    'does not compile' "C2's budget: e^ε becomes e^ε/2 in the uniqueness theorem" \
  's/Theorem P1_uniqueness \(Q : binary\) : C1 c r Q -> C2 c r e Q/Theorem P1_uniqueness (Q : binary) : C1 c r Q -> C2 c r (e \/ 2) Q/'
mutant B1.v    'does not compile' "RQM's calibration D = 2/(e^ε − 1) becomes 3/(e^ε − 1): m = 2 is no longer LDPQ" \
  's/Definition rqm_X \(keep_out e r : R\) : R := r \* \(1 \+ 2 \//Definition rqm_X (keep_out e r : R) : R := r * (1 + 3 \//'
# Proofs that assume instead of prove.
mutant T1a.v   'admitted proof or a new axiom' "a proof admitted" 's/Qed\./Admitted./'
mutant D0.v    'admitted proof or a new axiom' "a new axiom" 's/\nSection D0\./\nAxiom cheat : False.\nSection D0./'
mutant D0.v    'an assumption outside a Section' "a top-level hypothesis used by a theorem" \
  's/\z/\nHypothesis cheat : 1 = 2.\nLemma uses_cheat : 1 = 2. Proof. exact cheat. Qed.\nPrint Assumptions uses_cheat.\n/'

echo "mutation: $((n - failures)) of $n mutants rejected"
[ "$failures" -eq 0 ]
