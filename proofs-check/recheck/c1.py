"""C1 (communication cost, check_c1.cpp): the bits the protocol sends against dmk + nk."""
from fractions import Fraction as F

from .common import check_verdict
from .exact import rat
from .schema import int_string, list_of, nat, obj, one_of, put, text


DATA = {
    "C1": obj({"rows": list_of(obj({"m": nat, "d": nat, "n": nat, "bits_z_exchanged": int_string,
                                    "bits_z_from_key": int_string, "claimed_dmk_plus_nk": int_string})),
               **put("smallest_claimed_over_counted"),
               "count_rule": obj({"key_bits": nat, "election_bits": nat, "z_tag_bits": nat,
                                  "z_bits_per_coordinate": one_of("d"), "upload_bits_per_coordinate": one_of(1),
                                  "byte_rounding": text, "claimed": text})}),
}


C1_KEY_BITS = 256  # k: X25519 (check_c1.cpp)


def recheck_c1(cert, report):
    """C1 (communication cost, check_c1.cpp). Per row, the closed form the check asserts equals
    the protocol's count: keys 2k, election 2·(8 + 128), Z ⌈dm/8⌉·8 + 128 (ChaCha20-Poly1305 tag),
    upload ⌈m/8⌉·8; with Z derived from the key, no Z bits; the claimed dmk + nk literally.
    Summary: the smallest claimed/counted. Verdict: holds with slack iff every count is at most
    the claim, else fails."""
    data, k = cert["data"], C1_KEY_BITS
    rule = data["count_rule"]
    report.equal("data/count_rule/key_bits", rule["key_bits"], k)
    report.equal("data/count_rule/election_bits", rule["election_bits"], 2 * (8 + 128))
    report.equal("data/count_rule/z_tag_bits", rule["z_tag_bits"], 128)
    within, ratios = True, []
    for i, row in enumerate(data["rows"]):
        path = f"data/rows/{i}"
        m, d, n = row["m"], row["d"], row["n"]
        fixed = 2 * k + rule["election_bits"] + (m + 7) // 8 * 8
        exchanged = fixed + (d * m + 7) // 8 * 8 + rule["z_tag_bits"]
        claimed = d * m * k + n * k
        report.equal(f"{path}/bits_z_exchanged", int(row["bits_z_exchanged"]), exchanged)
        report.equal(f"{path}/bits_z_from_key", int(row["bits_z_from_key"]), fixed)
        report.equal(f"{path}/claimed_dmk_plus_nk", int(row["claimed_dmk_plus_nk"]), claimed)
        within = within and exchanged <= claimed
        ratios.append(F(claimed, exchanged))
    report.equal("data/smallest_claimed_over_counted", rat(data["smallest_claimed_over_counted"]), min(ratios))
    check_verdict(report, cert, "holds with slack" if within else "fails")
