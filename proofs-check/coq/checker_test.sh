#!/usr/bin/env bash
# check.sh must refuse what would let a theorem stand without a proof, however it is written. Each
# plant puts one such defect into a copy of the sources and must be rejected for that defect (its
# message is matched), not for some unrelated breakage; a control with the same words in comments
# and strings, and assumptions inside a Section, must pass. The plants that must reach Coq go into
# Plant.v, added last to a copy of _CoqProject and needing only Coq's own libraries, so that
# check.sh's FROM_FILE compiles that file alone and no full build is needed.
# Usage: checker_test.sh SOURCE_DIR
set -euo pipefail
src=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
failures=0 n=0

# run FILE: check.sh over the planted copy, recompiling from FILE (into an output folder that holds
# only what the plant put there); its output is left in $work/log.
run() {
  bash "$here/check.sh" "$work/src" "$work/out" "$1" > "$work/log" 2>&1
}

# fresh: a clean copy of the sources with Plant.v added last (empty until a plant writes it).
fresh() {
  rm -rf "$work/src" "$work/out"; cp -r "$src" "$work/src"; mkdir -p "$work/out"
  echo Plant.v >> "$work/src/_CoqProject"; : > "$work/src/Plant.v"
}

# rejected FILE REASON DESCRIPTION: the planted copy must fail, with a line matching REASON (an
# extended regular expression).
rejected() {
  local file=$1 reason=$2 what=$3
  n=$((n + 1))
  if run "$file"; then
    echo "plant $n ($what): NOT rejected"; failures=$((failures + 1))
  elif ! grep -qE "$reason" "$work/log"; then
    echo "plant $n ($what): rejected, but not for the expected reason ($reason):"
    tail -5 "$work/log"; failures=$((failures + 1))
  else
    echo "plant $n ($what): rejected ($(grep -m1 -E "$reason" "$work/log"))"
  fi
}

outside='an assumption outside a Section, where Coq makes it an axiom'

# Assumptions after the file's Sections have closed (reported at the planted line, the last one):
# Coq makes them axioms.
fresh; printf '\nHypothesis planted : 0 = 1.\n' >> "$work/src/D0.v"
rejected D0.v "^coq: D0\.v:$(wc -l < "$work/src/D0.v"): $outside \(Hypothesis\)$" 'a top-level Hypothesis in D0.v'
fresh; printf '\nVariable planted : nat.\n' >> "$work/src/T1a.v"
rejected T1a.v "^coq: T1a\.v:$(wc -l < "$work/src/T1a.v"): $outside \(Variable\)$" 'a top-level Variable in T1a.v'
fresh; printf 'Context (planted : 0 = 1).\n' > "$work/src/Plant.v"
rejected Plant.v "^coq: Plant\.v:1: $outside \(Context\)$" 'a top-level Context'
# A string inside a comment is lexed as a string: its "*)" does not end the comment, so the
# Hypothesis after the comment is code.
fresh; printf '(* "*)" *) Hypothesis planted : 0 = 1.\n' > "$work/src/Plant.v"
rejected Plant.v "^coq: Plant\.v:1: $outside \(Hypothesis\)$" 'a Hypothesis after a comment holding "*)" in a string'
fresh; printf 'Local Axiom planted : 0 = 1.\n' > "$work/src/Plant.v"
rejected Plant.v '^coq: Plant\.v:1: an admitted proof or a new axiom \(Axiom\)$' 'a Local Axiom'

# Flags that turn a kernel check off, however the command is laid out.
fresh; printf 'Unset Guard Checking.\nFixpoint loop (n : nat) : nat := loop n.\n' > "$work/src/Plant.v"
rejected Plant.v '^coq: Plant\.v:1: a kernel check turned off \(Unset Guard Checking\)$' 'Unset Guard Checking'
fresh; printf 'Local Unset\n  Universe Checking.\n' > "$work/src/Plant.v"
rejected Plant.v '^coq: Plant\.v:1: a kernel check turned off \(Unset Universe Checking\)$' 'Unset Universe Checking over two lines'
fresh; printf '#[bypass_check(positivity)] Inductive bad := C : (bad -> nat) -> bad.\n' > "$work/src/Plant.v"
rejected Plant.v '^coq: Plant\.v:1: a kernel check turned off \(bypass_check\)$' 'a bypass_check attribute'

# An axiom the scan of the project's files cannot see, from a library they require, whose name is
# so long that Print Assumptions prints its type on the next line ("Name" then "  : 0 = 1"); and
# one of Coq's own, printed the same way. Only the parse of Print Assumptions' output can refuse
# them.
long=a_planted_assumption_whose_name_is_so_long_that_coq_prints_its_type_on_the_next_line
fresh
printf 'Axiom %s : 0 = 1.\n' "$long" > "$work/out/Lib.v"
(cd "$work/out" && coqc -q -R . Corbin Lib.v)
cat > "$work/src/Plant.v" <<EOF
From Corbin Require Import Lib.
From Coq Require Import ClassicalEpsilon.
Lemma planted : 0 = 1. Proof. exact $long. Qed.
Lemma planted_choice (P : nat -> Prop) : (exists x, P x) -> {x | P x}.
Proof. exact (@constructive_indefinite_description nat P). Qed.
Print Assumptions planted.
Print Assumptions planted_choice.
EOF
before=$failures
rejected Plant.v "^coq: Plant\.v rests on assumptions beyond the reals' axioms: $long, constructive_indefinite_description\$" \
  'a library axiom and one of Coq'"'"'s, their types wrapped'
# What Coq printed must still have the layout this plant is about: each name alone on its line.
if [ "$failures" = "$before" ] &&
   ! { grep -qx "$long" "$work/out/Plant.out" && grep -qx constructive_indefinite_description "$work/out/Plant.out"; }; then
  echo "plant $n: Coq no longer prints these names alone on their lines; the plant does not test the wrapped layout"
  failures=$((failures + 1))
fi

# Control: the unmodified sources (scanned in full) and a file that names every banned word only in
# comments and strings, declares its assumptions inside Sections, and rests on the reals' axioms
# (whose types wrap too), must pass.
fresh
cat > "$work/src/Plant.v" <<'EOF'
(* Admitted. Axiom a : False. Hypothesis h : False. Unset Guard Checking. (* nested: admit *) *)
(* a string in a comment: "*) Admitted." still in the comment *)
From Coq Require Import Reals String.
Local Open Scope R_scope.
Definition words := "Admitted ""Axiom"" Variable Context (* Redirect"%string.
Section Planted.
Variables (x : R) (n : nat).
Hypothesis Hx : 0 < x.
Context (Hn : n = n).
Section Inner. Hypotheses (h : True). Lemma inner : True. Proof. exact h. Qed. End Inner.
Lemma positive_or_not : 0 < x \/ ~ 0 < x.
Proof. left. exact Hx. Qed.
End Planted.
Lemma decided (y : R) : y < 0 \/ ~ y < 0.
Proof. destruct (Rlt_dec y 0); [left | right]; assumption. Qed.
Print Assumptions decided.
EOF
n=$((n + 1))
if run Plant.v && grep -qE '^coq: Plant\.v +compiled' "$work/log"; then
  echo "plant $n (control: the words in comments and strings, Section assumptions): accepted"
else
  echo "plant $n (control: the words in comments and strings, Section assumptions): REJECTED:"
  tail -5 "$work/log"; failures=$((failures + 1))
fi

echo "checker: $((n - failures)) of $n plants handled as expected"
[ "$failures" -eq 0 ]
