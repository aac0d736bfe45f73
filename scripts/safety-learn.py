#!/usr/bin/env python3
"""Train the learned part of the safety screen's layer 1 (issue #28 §7, docs/safety.md,
"The learned detector"): one character/word n-gram logistic regression per language, written
to crates/agent/data/safety/learned-{zh,en}.tsv and evaluated at run time by
crates/agent/src/safety/learned.rs.

Run it through scripts/safety-learn.sh (pinned scikit-learn in a venv, the rules-only screener
built). It trains and selects ONLY on the labelled sets other than tests/safety/blind/ (it
refuses to read that folder), cross-validates by holding out whole batches (a file, or a batch
marked by a `# batch …` / `# ---- Added …` comment), prints the figures, picks the threshold
by a fixed rule, fits on everything and writes the weights and a probe file the Rust tests
replay. Deterministic: fixed seed, sorted inputs, liblinear-free solver (lbfgs).

Features (the Rust side must compute exactly these; see learned.rs): the text the rules read
(`RuleSet::prepare`: lower case, Traditional folded to Simplified, contractions restored, the
guards' idioms blanked out; got from the screener with --prepare), whitespace runs made one
space and one space added at each end; then every character n-gram of length 1..N that is not
all spaces, and the ASCII words ([a-z0-9']+) and word bigrams prefixed with "w:". Values:
sublinear tf-idf (1 + ln count) * idf, L2-normalised.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import yaml
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETS = ["", "tuning2", "tuning3", "fresh", "heldout", "heldout2", "everyday"]
RULES = os.path.join(ROOT, "crates/agent/data/safety/rules.yaml")
OUT = os.path.join(ROOT, "crates/agent/data/safety")
CLASSES = ["none", "suicide", "self_harm", "harm_others", "abuse", "medical"]
# Per language: longest character n-gram and the inverse regularisation strength.
PARAMS = {"zh": {"nmax": 3, "C": 16.0}, "en": {"nmax": 4, "C": 16.0}}
THRESHOLDS = [round(0.5 + 0.05 * i, 2) for i in range(10)]
# The threshold rule (set after an exploratory run of the same grid, docs/safety.md): the
# lowest threshold whose cross-validated false alarms leave room under the goals — everyday
# <= 0.01 (goal 0.02) and lookalikes, rules OR model, <= 0.06 (goal 0.10).
MAX_EVERYDAY, MAX_LOOKALIKE = 0.01, 0.06
# Batches measured once against the rules of their time before those rules were changed for
# them (docs/safety.md): (set, batch index in the file, name, commit of the rules they met).
HISTORY = [
    ("tuning2", 1, "B", "68ec47e"), ("tuning2", 2, "C", "e06024f"), ("tuning2", 3, "D", "a17e9ce"),
    ("tuning2", 4, "E", "c9cbade"), ("tuning3", 0, "F", "47da8b4"), ("tuning3", 1, "G", "c0d7ce4"),
    ("tuning3", 2, "H", "6aecf85"),
]


def rules_file():
    with open(RULES, encoding="utf-8") as f:
        return yaml.safe_load(f)


RULES_YAML = rules_file()
WS = re.compile(r"\s+")
WORD = re.compile(r"[a-z0-9']+")


def padded(prepared):
    return " " + WS.sub(" ", prepared).strip() + " "


def features(prepared, nmax):
    t = padded(prepared)
    out = []
    for n in range(1, nmax + 1):
        for i in range(len(t) - n + 1):
            g = t[i : i + n]
            if g.strip():
                out.append(g)
    words = WORD.findall(t)
    out += ["w:" + w for w in words]
    out += ["w:" + a + " " + b for a, b in zip(words, words[1:])]
    return out


# Message-wide cues that keep the model quiet (learned.rs does the same with the rules' regexes).
def cue(patterns):
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.ASCII) if patterns else None


FICTION, JOKING, REPORTED = (cue(RULES_YAML.get(k, [])) for k in ("fiction", "joking", "reported"))
QUOTES = set('"\u201c\u201d\u300c\u300d\u300e\u300f')


def discounted(t, category):
    """Why the model would be kept quiet on this prepared message (None: it may speak)."""
    if FICTION and FICTION.search(t):
        return "fiction"
    if category == "abuse":
        return None
    if JOKING and JOKING.search(t):
        return "joking"
    if (REPORTED and REPORTED.search(t)) or any(c in QUOTES for c in t):
        return "reported"
    return None


def load(lang):
    rows = []
    for s in SETS:
        path = os.path.join(ROOT, "tests/safety", s, f"{lang}.tsv")
        assert "blind" not in path
        batch, seen_data = 0, False
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line.strip():
                    continue
                if line.startswith("#"):
                    if seen_data and re.search(r"batch|added", line, re.I):
                        batch, seen_data = batch + 1, False
                    continue
                seen_data = True
                group, risk, category, text = line.split("\t")
                rows.append(dict(set=s or "base", batch=batch, unit=f"{s or 'base'}#{batch}",
                                 group=group, risk=risk, category=category, text=text))
    return rows


def screen_rules(rules_text, texts, screener, *flags):
    """Rules-only verdicts ({risk, rule, discount}) of a rules file by the committed screener;
    with "--prepare", the prepared texts instead."""
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, encoding="utf-8") as f:
        f.write(rules_text)
    try:
        out = subprocess.run([screener, f.name, *flags], input="\n".join(texts) + "\n", text=True,
                             capture_output=True, check=True).stdout
    finally:
        os.unlink(f.name)
    got = [json.loads(l) for l in out.splitlines()]
    assert len(got) == len(texts), (len(got), len(texts))
    return got


def fit(rows, idx, lang):
    """Fit on rows `idx`, leaving out indirect wording: layer 1's goal is explicit wording, and
    indirect risk ("can't sleep, nothing matters") taught the model to flag ordinary tiredness
    (more everyday false alarms in cross-validation); it is layer 2's job."""
    idx = [i for i in idx if rows[i]["group"] != "indirect"]
    p = PARAMS[lang]
    vec = TfidfVectorizer(analyzer=lambda t: features(t, p["nmax"]), sublinear_tf=True, min_df=2,
                          lowercase=False)
    x = vec.fit_transform([rows[i]["prep"] for i in idx])
    y = [CLASSES.index(rows[i]["category"]) if rows[i]["risk"] != "none" else 0 for i in idx]
    model = LogisticRegression(C=p["C"], max_iter=5000, class_weight="balanced", random_state=0)
    model.fit(x, y)
    return vec, model


def predict(vec, model, texts):
    probs = model.predict_proba(vec.transform(texts))
    return 1.0 - probs[:, 0], [CLASSES[1 + int(k)] for k in np.argmax(probs[:, 1:], axis=1)]


# The fewest non-space characters a prepared message needs before the model reads it (screen.rs).
MIN_CHARS = 6


def model_hit(p, category, prepared, t):
    enough = sum(1 for c in prepared if not c.isspace()) >= MIN_CHARS
    return enough and p >= t and discounted(prepared, category) is None


def cross_validate(lang, rows, rules_now):
    """Out-of-fold model scores: each batch scored by a model that never saw it."""
    p, cat = np.zeros(len(rows)), [""] * len(rows)
    for unit in sorted({r["unit"] for r in rows}):
        te = [i for i, r in enumerate(rows) if r["unit"] == unit]
        tr = [i for i, r in enumerate(rows) if r["unit"] != unit]
        vec, model = fit(rows, tr, lang)
        pp, cc = predict(vec, model, [rows[i]["prep"] for i in te])
        for k, i in enumerate(te):
            p[i], cat[i] = pp[k], cc[k]
    print(f"\n== {lang}: cross-validated, one batch held out at a time ({len(rows)} messages)")
    print("threshold | everyday FA (model) | lookalike FA (rules OR model) | explicit recall (model alone) | safe/borderline-none FA (OR)")
    picked = None
    for t in THRESHOLDS:
        def rate(group_test, hit):
            idx = [i for i, r in enumerate(rows) if group_test(r)]
            return sum(hit(i) for i in idx), len(idx)
        rule_hit = lambda i: rules_now[i]["risk"] != "none"
        either = lambda i: rule_hit(i) or (rules_now[i]["rule"] is None and model_hit(p[i], cat[i], rows[i]["prep"], t))
        ev = rate(lambda r: r["group"] == "everyday", either)
        la = rate(lambda r: r["group"] == "lookalike", either)
        ex = rate(lambda r: r["group"] == "explicit", lambda i: model_hit(p[i], cat[i], rows[i]["prep"], t))
        sb = rate(lambda r: r["group"] in ("safe", "borderline") and r["risk"] == "none", either)
        print(f"{t:9.2f} | {ev[0]:3d}/{ev[1]} = {ev[0]/ev[1]:.3f} | {la[0]:3d}/{la[1]} = {la[0]/la[1]:.3f} | "
              f"{ex[0]:4d}/{ex[1]} = {ex[0]/ex[1]:.3f} | {sb[0]}/{sb[1]}")
        if picked is None and ev[0] / ev[1] <= MAX_EVERYDAY and la[0] / la[1] <= MAX_LOOKALIKE:
            picked = t
    print(f"threshold picked ({lang}): {picked}")
    return picked


def history(lang, rows, screener, threshold):
    """The honest figure: each batch of the tuning history against the rules it first met
    (before they were changed for it), alone and OR the model trained without that batch."""
    print(f"\n== {lang}: batches against the rules they first met (model trained without the batch), threshold {threshold}")
    tot = [0] * 6
    for s, batch, name, commit in HISTORY:
        old = subprocess.run(["git", "-C", ROOT, "show", f"{commit}:crates/core/data/safety/rules.yaml"],
                             capture_output=True, text=True, check=True).stdout
        te = [i for i, r in enumerate(rows) if r["set"] == s and r["batch"] == batch]
        got = screen_rules(old, [rows[i]["text"] for i in te], screener)
        tr = [i for i, r in enumerate(rows) if r["unit"] != rows[te[0]]["unit"]]
        vec, model = fit(rows, tr, lang)
        pp, cc = predict(vec, model, [rows[i]["prep"] for i in te])
        e = [0] * 6
        for k, i in enumerate(te):
            rule = got[k]["risk"] != "none"
            both = rule or (got[k]["rule"] is None and model_hit(pp[k], cc[k], rows[i]["prep"], threshold))
            if rows[i]["group"] == "explicit":
                e[0], e[1], e[2] = e[0] + 1, e[1] + rule, e[2] + both
            if rows[i]["group"] == "lookalike":
                e[3], e[4], e[5] = e[3] + 1, e[4] + rule, e[5] + both
        tot = [a + b for a, b in zip(tot, e)]
        print(f"batch {name} (rules of {commit}): explicit {e[1]}/{e[0]} -> {e[2]}/{e[0]}, lookalike false alarms {e[4]}/{e[3]} -> {e[5]}/{e[3]}")
    print(f"all: explicit recall {tot[1]/tot[0]:.3f} ({tot[1]}/{tot[0]}) -> {tot[2]/tot[0]:.3f} ({tot[2]}/{tot[0]}); "
          f"misses caught {tot[2]-tot[1]}/{tot[0]-tot[1]}; lookalike false alarms {tot[4]/tot[3]:.3f} -> {tot[5]/tot[3]:.3f}")


def export(lang, rows, threshold):
    vec, model = fit(rows, list(range(len(rows))), lang)
    vocab = sorted(vec.vocabulary_.items(), key=lambda kv: kv[1])
    idf, coef, intercept = vec.idf_, model.coef_, model.intercept_
    path = os.path.join(OUT, f"learned-{lang}.tsv")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(f"# Learned safety detector ({lang}), written by scripts/safety-learn.py; do not edit.\n")
        f.write("# Read by crates/agent/src/safety/learned.rs; docs/safety.md, \"The learned detector\".\n")
        f.write(f"# Trained on {len(rows)} labelled messages of tests/safety (never the blind set).\n")
        f.write("version\t1\n")
        f.write(f"language\t{lang}\n")
        f.write(f"ngrams\t{PARAMS[lang]['nmax']}\n")
        f.write(f"threshold\t{threshold}\n")
        f.write("classes\t" + "\t".join(CLASSES) + "\n")
        f.write("intercept\t" + "\t".join(f"{b:.5g}" for b in intercept) + "\n")
        for feature, j in sorted(vocab):
            f.write(feature + "\t" + f"{idf[j]:.5g}" + "\t" + "\t".join(f"{w:.5g}" for w in coef[:, j]) + "\n")
    print(f"\nwrote {path}: {len(vocab)} features")
    return path


def load_exported(path):
    """The pure scorer, written as learned.rs reads and computes (checks the export)."""
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    head = dict(l.split("\t", 1) for l in lines[:6])
    weights = {}
    for l in lines[6:]:
        parts = l.split("\t")
        weights[parts[0]] = (float(parts[1]), [float(x) for x in parts[2:]])
    return int(head["ngrams"]), [float(x) for x in head["intercept"].split("\t")], weights


def pure_score(model, prepared):
    nmax, intercept, weights = model
    counts = {}
    for g in features(prepared, nmax):
        if g in weights:
            counts[g] = counts.get(g, 0) + 1
    vals = {g: (1.0 + math.log(c)) * weights[g][0] for g, c in counts.items()}
    norm = math.sqrt(sum(v * v for v in vals.values())) or 1.0
    z = list(intercept)
    for g, v in vals.items():
        for k, w in enumerate(weights[g][1]):
            z[k] += w * v / norm
    m = max(z)
    e = [math.exp(x - m) for x in z]
    s = sum(e)
    probs = [x / s for x in e]
    return 1.0 - probs[0], CLASSES[1 + max(range(5), key=lambda k: probs[1 + k])]


def probes(lang, rows, path):
    model = load_exported(path)
    pick = [r for i, r in enumerate(rows) if i % 40 == 0]
    out = os.path.join(OUT, f"learned-probe-{lang}.tsv")
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write("# Probe messages and the scores scripts/safety-learn.py computed for them; learned.rs's\n")
        f.write("# tests must compute the same (risk probability within 1e-4, same category).\n")
        for r in pick:
            p, c = pure_score(model, r["prep"])
            f.write(f"{p:.6f}\t{c}\t{r['text']}\n")
    print(f"wrote {out}: {len(pick)} probes")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--screener", required=True, help="the rules-only screener (examples/screen_rules)")
    ap.add_argument("--lang", choices=["zh", "en"], action="append")
    ap.add_argument("--no-history", action="store_true", help="skip the batch history figures")
    args = ap.parse_args()
    np.random.seed(0)
    for lang in args.lang or ["zh", "en"]:
        rows = load(lang)
        with open(RULES, encoding="utf-8") as f:
            rules_text = f.read()
        rules_now = screen_rules(rules_text, [r["text"] for r in rows], args.screener)
        prepared = screen_rules(rules_text, [r["text"] for r in rows], args.screener, "--prepare")
        for r, prep in zip(rows, prepared):
            r["prep"] = prep
        threshold = cross_validate(lang, rows, rules_now)
        if threshold is None:
            sys.exit(f"{lang}: no threshold meets the false-alarm limits; nothing written")
        if not args.no_history:
            history(lang, rows, args.screener, threshold)
        path = export(lang, rows, threshold)
        probes(lang, rows, path)


if __name__ == "__main__":
    main()
