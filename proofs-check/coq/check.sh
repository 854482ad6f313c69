#!/usr/bin/env bash
# Compiles every Coq file of this folder in _CoqProject's order (in a copy under OUT), and checks
# that no proof is admitted, that no file assumes instead of proving or turns a kernel check off
# (read from the sources), and that every theorem rests only on the axioms the standard
# library's real numbers (and coq-interval's primitive floats) bring: Verdicts.v ends with one
# `Print Assumptions` over every pinned verdict and one over every erratum the report cites (a
# file may add its own), and their output is read here.
# Usage: check.sh SOURCE_DIR OUT_DIR [FROM_FILE]
#   FROM_FILE: OUT_DIR already holds a compiled copy; recompile FROM_FILE and every file after it
#   (the mutation and checker tests use this to recompile only what a mutant or plant touches).
set -euo pipefail
src=$1 out=$2 from=${3:-}
mapfile -t files < <(grep -E '\.v$' "$src/_CoqProject")
if [ -z "$from" ]; then rm -rf "$out"; fi
mkdir -p "$out"
# The audit trusts the pinned verdicts only while this stamp vouches for every file as it is now.
rm -f "$out/verified.txt"
# What the kernel would accept without a proof, read in each file with its comments and strings
# blanked out (so prose may name these words): admitted proofs and declarations that assume instead
# of prove, anywhere; Hypothesis, Variable and Context outside a Section, where Coq makes them
# axioms (inside one they become hypotheses of the theorems when it closes, which is allowed); the
# flags that turn a kernel check off; a plugin, which the kernel does not check; and Redirect, which
# would hide Print Assumptions' output from the check below. One line per finding.
perl - "${files[@]/#/$src/}" <<'PERL' || exit 1
use strict; use warnings;
binmode STDOUT, ':encoding(UTF-8)';
my $found = 0;
for my $path (@ARGV) {
  open(my $fh, '<:encoding(UTF-8)', $path) or die "coq: $path: cannot be read: $!\n";
  my $text = do { local $/; <$fh> };
  (my $name = $path) =~ s{.*/}{};
  # Comments nest, and Coq lexes strings inside them (a "*)" in such a string does not close the
  # comment); "" inside a string is an escaped quote and outside one an empty string, so it never
  # changes whether a string is open. Newlines are kept so that line numbers hold.
  my ($code, $comments, $in_string) = ('', 0, 0);
  for my $piece (split /(\(\*|\*\)|""|"|\n)/, $text) {
    if ($piece eq "\n") { $code .= "\n"; next; }
    if ($piece eq '"') { $in_string = !$in_string; $code .= ' '; next; }
    if (!$in_string && $piece eq '(*') { $comments++; $code .= '  '; next; }
    if (!$in_string && $comments && $piece eq '*)') { $comments--; $code .= '  '; next; }
    $code .= ($comments || $in_string || $piece eq '""') ? ' ' x length($piece) : $piece;
  }
  my $w = qr/(?<![\w'])/; my $e = qr/(?![\w'])/;
  my @anywhere = (
    [qr/$w(?:Admitted|admit|Admit|Axioms?|Conjectures?|Parameters?|Declare\s+(?:Instance|Module))$e/,
     'an admitted proof or a new axiom'],
    [qr/${w}Unset\s+(?:Guard|Universe|Positivity)\s+Checking$e|${w}bypass_check$e/, 'a kernel check turned off'],
    [qr/${w}Declare\s+ML\s+Module$e/, 'a plugin, which the kernel does not check'],
    [qr/${w}Redirect$e/, 'output redirected away from the assumptions check'],
  );
  my $in_section = qr/$w(?:Hypothes[ie]s|Variables?|Context)$e/;
  my $sections = 0;
  # One sentence at a time (a sentence ends with a dot before a blank), to follow Section ... End.
  while ($code =~ /\S.*?(?:\.(?=\s|\z)|\z)/gs) {
    my ($sentence, $at) = ($&, $-[0]);
    my @hits;
    for my $rule (@anywhere) {
      push @hits, [$-[0], $&, $rule->[1]] while $sentence =~ /$rule->[0]/g;
    }
    # Modules cannot be opened inside a Section, so while one is open the next End closes it.
    if ($sentence =~ /\ASection\s+[\w']+\s*\.\z/) { $sections++; }
    elsif ($sentence =~ /\AEnd\s+[\w']+\s*\.\z/) { $sections-- if $sections > 0; }
    elsif ($sections == 0) {
      push @hits, [$-[0], $&, 'an assumption outside a Section, where Coq makes it an axiom']
        while $sentence =~ /$in_section/g;
    }
    for my $hit (sort { $a->[0] <=> $b->[0] } @hits) {
      my $line = 1 + (substr($code, 0, $at + $hit->[0]) =~ tr/\n//);
      (my $what = $hit->[1]) =~ s/\s+/ /g;
      print "coq: $name:$line: $hit->[2] ($what)\n";
      $found = 1;
    }
  }
}
exit $found;
PERL
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
  # Print Assumptions writes to stdout, warnings and errors go to stderr: .out holds only what
  # the files print.
  if ! coqc -q -R . Corbin "$f" > "${f%.v}.out" 2> "${f%.v}.err"; then
    echo "coq: $f does not compile:"; cat "${f%.v}.out" "${f%.v}.err"; exit 1
  fi
  # Every entry of an Axioms: (or Theory:) list of Print Assumptions, whatever its layout. An
  # entry starts at the line's first column: "Name : type", or "Name" alone when the type wraps
  # onto the next lines, or "Name is assumed to be guarded." (reported whole); its continuations are
  # indented or start with ":". A list runs until the next list's title; anything else a file
  # prints after it is read as an entry too, so output this parse does not know fails the check.
  bad=$(awk '/^(Axioms|Theory):$/ { on = 1; theory = ($0 == "Theory:"); next }
             /^(Section Variables|Transparent constants|Opaque constants):$/ { on = 0; next }
             /^Closed under the global context$/ { on = 0; next }
             on && NF && !/^[ \t:]/ {
               if (theory || / (is assumed to be|relies on) /) print; else print $1
             }' "${f%.v}.out" |
        grep -Ev "$allowed" | paste -sd, - | sed 's/,/, /g' || true)
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
