#pragma once
// The proofs behind the verdicts: proofs-check/coq/Verdicts.v pins one theorem per decided
// reading,
//     Theorem holds__T1b__levels : T1b_claim_levels.  Proof. exact T1b_levels. Qed.
//     Theorem fails__T1b__printed : ~ T1b_claim.      Proof. exact T1b_fails. Qed.
// so a verdict's direction is Coq's type, not a word in this program. The pins are trusted only
// when check.sh compiled every file of _CoqProject without admitted proofs or extra axioms in
// this build: it then writes BUILD/verified.txt with the SHA-256 of each file it compiled, and
// every one must equal the source's now (a stale or partial build does not count).

#include <filesystem>
#include <map>
#include <string>

namespace corbin::audit {

struct PinnedTheorem {
  bool holds = false;      ///< holds__ (the statement) or fails__ (its negation)
  std::string statement;   ///< as written after the colon, e.g. "~ T1b_claim"
  std::string lemma;       ///< the theorem it is proved by
  std::string file;        ///< the file that proves the lemma
};

struct CoqEvidence {
  bool checked = false;    ///< compiled and checked in this build, sources unchanged
  std::string why_not;     ///< when not checked
  std::size_t files = 0;   ///< files compiled
  /// Each _CoqProject file's SHA-256 (hex) as read: the proofs a verdict rests on, for provenance.
  std::map<std::string, std::string> source_sha256;
  std::map<std::string, PinnedTheorem> pinned;  ///< "T1b/levels" -> its theorem
  const PinnedTheorem* find(const std::string& id, const std::string& key) const;
  std::multimap<std::string, std::string> declared;  ///< lemma -> the _CoqProject file declaring it
  /// The file declaring `name` ("File.lemma" must be in File.v; a bare name in `default_file`),
  /// or empty.
  std::string declaring_file(const std::string& name, const std::string& default_file) const;
};

/// Reads SOURCE/Verdicts.v and SOURCE/_CoqProject, and BUILD/verified.txt if present. Raises
/// runtime_error when Verdicts.v is missing or a pin names a lemma no file proves.
CoqEvidence load_coq_evidence(const std::filesystem::path& source, const std::filesystem::path& build);

}  // namespace corbin::audit
