// C1: communication cost O(dmk + nk) per round (k: the DH key size, Sec. 4). The bytes the
// implemented protocol (src/corbin/fl/protocol) sends and receives per client per round,
// counted by its relay while it runs one pair's set-up, against the claimed expression.

#include "claims.hpp"
#include "corbin/fl/mechanism.hpp"
#include "corbin/fl/protocol.hpp"

namespace corbin::audit {
namespace {

/// Bits a pair's busier client (the leader) sends plus receives in one round: the protocol run
/// for real on a model of m parameters (one layer), plus its one-bit update. The model download
/// is left out: every mechanism, private or not, pays it.
std::uint64_t counted_bits(std::uint64_t m, unsigned d, fl::ZTransport transport) {
  const std::vector<fl::Layer> layers{{0, static_cast<std::size_t>(m)}};
  fl::Relay relay(2);
  fl::ProtocolConfig config;
  config.transport = transport;
  const auto channels = fl::establish_pairs({{0, 1}}, layers, d, config, 1, 0, relay);
  const fl::Traffic& t = relay.traffic()[channels.at(0).leader];
  return 8 * (t.up() + t.down() + fl::update_bytes(fl::Registry::global().find("corbin"), layers));
}

}  // namespace

ClaimResult check_c1(const Grid& grid) {
  ClaimResult out;
  out.id = "C1";
  out.statement = "Communication cost O(dmk + nk) bits per round (per client), k the key size.";
  out.method = "Counted by running the implemented protocol (corbin::fl::establish_pairs) for one pair and "
               "reading its relay's byte counts: an X25519 key each way (k = 256 bits), the leader election "
               "(one sealed byte each way, 17 bytes), Z of d·m bits sent under ChaCha20-Poly1305 (+ 128-bit "
               "tag; nonces are counters, not sent) or derived from the agreed key (0 bits), plus the m-bit "
               "quantized upload; against dmk + nk evaluated literally. The model download (32m bits, the same "
               "for every mechanism) is left out of both.";
  const BigInt k(256);
  Json rows = Json::array();
  bool within = true;
  Rational min_ratio(-1);
  const std::vector<unsigned long> models = {421642, 11173962};  // the authors' MNIST model, ResNet-18
  for (unsigned long m : models)
    for (unsigned d : {1u, 5u, 16u}) {
      const BigInt exchanged(counted_bits(m, d, fl::ZTransport::encrypted));
      const BigInt derived(counted_bits(m, d, fl::ZTransport::derived));
      // The same count in closed form: keys 2k, election 2·(8 + 128), Z ⌈dm/8⌉·8 + 128, upload ⌈m/8⌉·8.
      const BigInt formula = 2 * k + 272 + BigInt((d * m + 7) / 8 * 8) + 128 + BigInt((m + 7) / 8 * 8);
      within = within && exchanged == formula;
      for (unsigned long n : grid.clients) {
        const BigInt claimed = BigInt(d) * BigInt(m) * k + BigInt(n) * k;
        within = within && exchanged <= claimed;
        const Rational ratio(claimed, exchanged);
        if (min_ratio < 0 || ratio < min_ratio) min_ratio = ratio;
        Json row = Json::object();
        row["m"] = m;
        row["d"] = d;
        row["n"] = n;
        row["bits_z_exchanged"] = exchanged.str();
        row["bits_z_from_key"] = derived.str();
        row["claimed_dmk_plus_nk"] = claimed.str();
        rows.push_back(row);
      }
    }
  out.certificate["rows"] = rows;
  // The counting rule the rows follow (the closed form above): bits, sent as whole bytes.
  out.certificate["count_rule"] = {{"key_bits", 256},
                                   {"election_bits", 272},
                                   {"z_tag_bits", 128},
                                   {"z_bits_per_coordinate", "d"},
                                   {"upload_bits_per_coordinate", 1},
                                   {"byte_rounding", "each message rounded up to whole bytes: ceil(bits / 8) * 8"},
                                   {"claimed", "d m k + n k, k = key_bits"}};
  put(out.certificate, "smallest_claimed_over_counted", min_ratio);
  out.reading = "per_client";  // the aggregate reading is refuted in Coq (Comm.v)
  out.verdict = within ? Verdict::holds_with_slack : Verdict::fails;
  out.finding = "as printed (\"aggregate\": summed over the n clients) no constant covers the n·m bits of the uploads "
                "(Comm.v); counted per client per round: dm + m + 2k + 400 bits (Z exchanged) or m + 2k + 272 (Z derived "
                "from the key); the claimed dmk + nk is >= " +
                std::to_string(to_double(min_ratio)).substr(0, 6) +
                "× that: the factor k on dm is spurious (a stream cipher does not expand), and only the "
                "partner's key is needed, not n of them";
  out.result = out.finding + ". Headline: read as summed over the clients (\"aggregate\") the claim fails; read "
               "per client, in the paper's own unit (\"O(nk) bits per client\"), it holds. The byte counts (and "
               "Comm.v's) describe this project's protocol (key exchange, election, Z, updates), not Algorithm 3 "
               "itself, which fixes no message format.";
  out.recheck = "Arithmetic in the certificate's rows; the protocol's counts are tested in tests/test_fl.cpp.";
  return out;
}

}  // namespace corbin::audit
