#!/usr/bin/env bash
# Compiles every Coq file of this folder in _CoqProject's order (in a copy under OUT), and checks
# that no proof is admitted and that every theorem rests only on the axioms the standard
# library's real numbers (and coq-interval's primitive floats) bring: Verdicts.v ends with one
# `Print Assumptions` over every pinned verdict and one over every erratum the report cites (a
# file may add its own), and their output is read here.
# Usage: check.sh SOURCE_DIR OUT_DIR [FROM_FILE]
#   FROM_FILE: OUT_DIR already holds a compiled copy; recompile FROM_FILE and every file after it
#   (the mutation test uses this to recompile only what a mutant touches).
set -euo pipefail
src=$1 out=$2 from=${3:-}
mapfile -t files < <(grep -E '\.v$' "$src/_CoqProject")
if [ -z "$from" ]; then rm -rf "$out"; fi
mkdir -p "$out"
# The audit trusts the pinned verdicts only while this stamp vouches for every file as it is now.
rm -f "$out/verified.txt"
# Admitted proofs and declarations that assume instead of prove, anywhere in a file. (Section
# variables are allowed: they become hypotheses of the theorems when the section closes.)
if grep -nE '\b(Admitted|admit|Axiom|Axioms|Conjecture|Parameter|Parameters)\b' "${files[@]/#/$src/}"; then
  echo "coq: an admitted proof or a new axiom (above)"; exit 1
fi
cp "$src/_CoqProject" "${files[@]/#/$src/}" "$out"/
cd "$out"
# The axioms Reals rests on (ClassicalDedekindReals, classic, functional extensionality) and the
# specifications of the primitive integers and floats that coq-interval computes with.
allowed='^(ClassicalDedekindReals\.sig_not_dec|ClassicalDedekindReals\.sig_forall_dec|FunctionalExtensionality\.functional_extensionality_dep|Classical_Prop\.classic|(Uint63|PrimInt63|PrimFloat|FloatAxioms|FloatOps|SpecFloat)\.[A-Za-z0-9_]+)$'
started=$([ -z "$from" ] && echo 1 || echo 0)
status=0
for f in "${files[@]}"; do
  [ "$f" = "$from" ] && started=1
  [ "$started" = 1 ] || continue
  start=$(date +%s%N)
  if ! coqc -q -R . Corbin "$f" > "${f%.v}.out" 2>&1; then
    echo "coq: $f does not compile:"; cat "${f%.v}.out"; exit 1
  fi
  # Axiom names are the lines of Print Assumptions' output that start a declaration ("Name : ...").
  bad=$(awk '/^Axioms:/{on=1; next} on && /^[A-Za-z_][A-Za-z0-9_.]* :/{print $1}' "${f%.v}.out" | grep -Ev "$allowed" || true)
  if [ -n "$bad" ]; then echo "coq: $f rests on assumptions beyond the reals' axioms: $bad"; status=1; fi
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  printf 'coq: %-14s compiled in %d.%01d s\n' "$f" $((ms / 1000)) $((ms % 1000 / 100))
done
if [ "$started" = 0 ]; then echo "coq: $from is not in _CoqProject"; exit 1; fi
if [ "$status" = 0 ]; then
  # SHA-256 of each file compiled (the copies in OUT: what Coq checked), for corbin audit.
  sha256sum "${files[@]}" > verified.txt.tmp && mv verified.txt.tmp verified.txt
fi
exit $status
