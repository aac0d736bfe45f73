#!/usr/bin/env python3
"""Train the learned detector of the safety screen's layer 1 (issue #28 §7, docs/safety.md,
"The learned detector"): one multinomial logistic regression per language over character
n-grams and words, written to crates/agent/data/safety/learned-{zh,en}.tsv and scored at run
time by crates/agent/src/safety/learned.rs. Where no rule fired, a hit of it asks the model
check; it never raises a notice by itself.

Run it through scripts/safety-learn.sh (pinned scikit-learn in a venv, the rules-only screener
built). It reads every labelled set under tests/safety except the sets kept apart (KEPT_APART:
the blind sets and everyday set 6, which only `vibe safety eval` measures, in aggregate) and the
guard set of everyday openers (GUARD, which the Rust tests hold it to). It fits once without the
validation sets (VALIDATION: the last-written tuning sets), picks the threshold on them and the
guard set by a fixed rule, fits again on everything but the guard set, and writes the weights
and a probe file the Rust tests replay. Deterministic.

Features (learned.rs computes exactly these): the text the rules read (`RuleSet::prepare`:
lower case, Traditional folded to Simplified, contractions restored, the guards' idioms blanked
out; from the screener with --prepare), whitespace runs made one space and one space added at
each end; every character n-gram of length 1..N that is not all spaces, and the ASCII words
([a-z0-9']+) and word bigrams prefixed with "w:". Values: sublinear tf-idf (1 + ln count) * idf,
L2-normalised over the features the model knows.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys

import numpy as np
import yaml
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAFETY = os.path.join(ROOT, "tests/safety")
RULES = os.path.join(ROOT, "crates/agent/data/safety/rules.yaml")
OUT = os.path.join(ROOT, "crates/agent/data/safety")
# Never read: the fresh sets layer 1 is judged on (docs/safety.md).
KEPT_APART = {"blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9", "blind10", "blind11", "blind12", "blind13", "everyday6"}
# Short everyday openers ("I've been thinking a lot lately"): never trained on, so they stay a
# test of what the detector makes of a life coach's most common messages.
GUARD = "everyday8"
# Fresh wording for choosing the threshold: the last tuning sets written, and everyday set 7.
VALIDATION = {"tuning7", "tuning8", "tuning9", "heldout2", "everyday7"}
CLASSES = ["none", "suicide", "self_harm", "harm_others", "abuse", "medical"]
# Per language: longest character n-gram and the inverse regularisation strength. Classes keep
# their natural weights: weighting the rare risky classes up ("balanced") made the model flag
# a quarter to a third of the guard set's openers.
PARAMS = {"zh": {"nmax": 3, "C": 4.0}, "en": {"nmax": 4, "C": 4.0}}
THRESHOLDS = [round(0.5 + 0.05 * i, 2) for i in range(10)]
# The threshold rule: the lowest threshold at which the validation sets' flags (rules OR
# model) stay within room under the goals — lookalikes <= 0.08 (goal 0.10), everyday messages
# <= 0.03 — and at most 0.10 of the guard set's openers ask the model (each flag costs one
# model-check call; no notice unless the model agrees).
MAX_LOOKALIKE, MAX_EVERYDAY, MAX_OPENERS = 0.08, 0.03, 0.10
# A feature is written only when some class weight times its idf reaches this, and numbers
# with three significant digits: both binaries of the packages embed the weights, and the
# .deb's 40 MB goal (docs/performance.md) left no room for the full model. On a sample of the
# training sets this moved no message across the threshold in Chinese and one of 1,318 in
# English (probabilities by at most 0.04).
MIN_WEIGHT = 0.5
DIGITS = ".3g"
# The fewest non-space characters a prepared message needs before the model reads it (screen.rs).
MIN_CHARS = 6
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


with open(RULES, encoding="utf-8") as f:
    RULES_YAML = yaml.safe_load(f)


def cue(patterns):
    return re.compile("|".join(f"(?:{p})" for p in patterns)) if patterns else None


FICTION, JOKING, REPORTED = (cue(RULES_YAML.get(k, [])) for k in ("fiction", "joking", "reported"))
QUOTES = set('"\u201c\u300c\u300e')


def quiet(row, category):
    """Whether screen.rs keeps the model quiet on this message (prepared, guarded)."""
    t = row["prep"]
    if row["guarded"] or sum(1 for c in t if not c.isspace()) < MIN_CHARS or (FICTION and FICTION.search(t)):
        return True
    if category == "abuse":
        return False
    return bool((JOKING and JOKING.search(t)) or (REPORTED and REPORTED.search(t)) or QUOTES & set(t))


def training_sets():
    names = [""] + sorted(d for d in os.listdir(SAFETY) if os.path.isdir(os.path.join(SAFETY, d)))
    return [n for n in names if n not in KEPT_APART and n != GUARD]


def load(lang, sets=None):
    rows = []
    for s in sets or training_sets():
        path = os.path.join(SAFETY, s, f"{lang}.tsv")
        assert os.path.basename(os.path.dirname(path)) not in KEPT_APART
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line.strip() or line.startswith("#"):
                    continue
                group, risk, category, text = line.split("\t", 3)
                rows.append(dict(set=s or "base", group=group, risk=risk, category=category, text=text))
    return rows


def screener(exe, texts, *flags):
    out = subprocess.run([exe, RULES, *flags], input="\n".join(texts) + "\n", text=True,
                         capture_output=True, check=True).stdout
    got = [json.loads(l) for l in out.splitlines()]
    assert len(got) == len(texts), (len(got), len(texts))
    return got


def fit(rows, idx, lang):
    p = PARAMS[lang]
    vec = TfidfVectorizer(analyzer=lambda t: features(t, p["nmax"]), sublinear_tf=True, min_df=2,
                          lowercase=False)
    x = vec.fit_transform([rows[i]["prep"] for i in idx])
    y = [CLASSES.index(rows[i]["category"]) if rows[i]["risk"] != "none" else 0 for i in idx]
    model = LogisticRegression(C=p["C"], max_iter=5000, random_state=0)
    model.fit(x, y)
    return vec, model


def predict(vec, model, texts):
    probs = model.predict_proba(vec.transform(texts))
    return 1.0 - probs[:, 0], [CLASSES[1 + int(k)] for k in np.argmax(probs[:, 1:], axis=1)]


def flags(rows, rules, p, cat, t):
    return [r["risk"] != "none" or (r["rule"] is None and p[i] >= t and not quiet(rows[i], cat[i]))
            for i, r in enumerate(rules)]


def validate(lang, rows, rules, guard, guard_rules):
    """Fit without the validation sets, score them and the guard set, pick the threshold."""
    val = [i for i, r in enumerate(rows) if r["set"] in VALIDATION]
    vec, model = fit(rows, [i for i, r in enumerate(rows) if r["set"] not in VALIDATION], lang)
    p, cat = np.zeros(len(rows)), [""] * len(rows)
    pp, cc = predict(vec, model, [rows[i]["prep"] for i in val])
    for k, i in enumerate(val):
        p[i], cat[i] = pp[k], cc[k]
    gp, gc = predict(vec, model, [r["prep"] for r in guard])
    print(f"\n== {lang}: fitted without {sorted(VALIDATION)}, scored on them and on {GUARD}")
    print("threshold | risky flagged (rules -> rules OR model) | lookalikes flagged | everyday flagged | openers")
    picked = None
    for t in THRESHOLDS:
        f = flags(rows, rules, p, cat, t)
        g = flags(guard, guard_rules, gp, gc, t)
        def rate(groups, risky):
            idx = [i for i in val if rows[i]["group"] in groups and (rows[i]["risk"] != "none") == risky]
            return sum(f[i] for i in idx), len(idx)
        rk, la, ev = rate(("explicit", "indirect"), True), rate(("lookalike",), False), rate(("everyday", "safe"), False)
        before = sum(rules[i]["risk"] != "none" for i in val if rows[i]["group"] in ("explicit", "indirect") and rows[i]["risk"] != "none")
        print(f"{t:9.2f} | {before} -> {rk[0]}/{rk[1]} | {la[0]}/{la[1]} = {la[0]/la[1]:.3f} | "
              f"{ev[0]}/{ev[1]} = {ev[0]/ev[1]:.3f} | {sum(g)}/{len(g)} = {sum(g)/len(g):.3f}")
        if (picked is None and la[0] / la[1] <= MAX_LOOKALIKE and ev[0] / ev[1] <= MAX_EVERYDAY
                and sum(g) / len(g) <= MAX_OPENERS):
            picked = t
    print(f"threshold picked ({lang}): {picked}")
    return picked


def export(lang, rows, threshold):
    vec, model = fit(rows, list(range(len(rows))), lang)
    vocab = sorted(vec.vocabulary_.items())
    idf, coef, intercept = vec.idf_, model.coef_, model.intercept_
    kept = [(g, j) for g, j in vocab if np.max(np.abs(coef[:, j])) * idf[j] >= MIN_WEIGHT]
    path = os.path.join(OUT, f"learned-{lang}.tsv")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(f"# Learned safety detector ({lang}), written by scripts/safety-learn.py; do not edit.\n")
        f.write("# Read by crates/agent/src/safety/learned.rs; docs/safety.md, \"The learned detector\".\n")
        f.write(f"# Trained on {len(rows)} labelled messages of tests/safety (never the sets kept apart).\n")
        f.write("version\t1\n")
        f.write(f"language\t{lang}\n")
        f.write(f"ngrams\t{PARAMS[lang]['nmax']}\n")
        f.write(f"threshold\t{threshold}\n")
        f.write("classes\t" + "\t".join(CLASSES) + "\n")
        f.write("intercept\t" + "\t".join(f"{b:{DIGITS}}" for b in intercept) + "\n")
        for feature, j in kept:
            f.write(feature + "\t" + f"{idf[j]:{DIGITS}}" + "\t" + "\t".join(f"{w:{DIGITS}}" for w in coef[:, j]) + "\n")
    print(f"wrote {path}: {len(kept)} of {len(vocab)} features")
    return path


def load_exported(path):
    """The scorer as learned.rs reads and computes it (checks the export, writes the probes)."""
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    head = dict(l.split("\t", 1) for l in lines[:6])
    weights = {}
    for l in lines[6:]:
        parts = l.split("\t")
        weights[parts[0]] = (float(parts[1]), [float(x) for x in parts[2:]])
    return int(head["ngrams"]), float(head["threshold"]), [float(x) for x in head["intercept"].split("\t")], weights


def pure_score(model, prepared):
    nmax, _, intercept, weights = model
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
    probs = [x / sum(e) for x in e]
    return 1.0 - probs[0], CLASSES[1 + max(range(5), key=lambda k: probs[1 + k])]


def probes(lang, rows, rules, path):
    model = load_exported(path)
    scored = [pure_score(model, r["prep"]) for r in rows]
    f = [r["risk"] != "none" or (g["rule"] is None and s[0] >= model[1] and not quiet(r, s[1]))
         for r, g, s in zip(rows, rules, scored)]
    risky = [i for i, r in enumerate(rows) if r["group"] in ("explicit", "indirect") and r["risk"] != "none"]
    print(f"exported model on its own training sets: risky flagged {sum(f[i] for i in risky)}/{len(risky)}")
    out = os.path.join(OUT, f"learned-probe-{lang}.tsv")
    with open(out, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("# Probe messages and the scores scripts/safety-learn.py computed for them; learned.rs's\n")
        fh.write("# tests must compute the same (risk probability within 1e-4, same category).\n")
        for i in range(0, len(rows), 60):
            fh.write(f"{scored[i][0]:.6f}\t{scored[i][1]}\t{rows[i]['text']}\n")
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--screener", required=True, help="the rules-only screener (examples/screen_rules)")
    ap.add_argument("--lang", choices=["zh", "en"], action="append")
    ap.add_argument("--threshold", type=float, help="skip the validation fit and use this threshold")
    args = ap.parse_args()
    for lang in args.lang or ["zh", "en"]:
        rows = load(lang)
        texts = [r["text"] for r in rows]
        rules = screener(args.screener, texts)
        for r, (prep, guarded) in zip(rows, screener(args.screener, texts, "--prepare")):
            r["prep"], r["guarded"] = prep, guarded
        guard = load(lang, [GUARD])
        for r, (prep, guarded) in zip(guard, screener(args.screener, [r["text"] for r in guard], "--prepare")):
            r["prep"], r["guarded"] = prep, guarded
        guard_rules = screener(args.screener, [r["text"] for r in guard])
        threshold = args.threshold or validate(lang, rows, rules, guard, guard_rules)
        if threshold is None:
            sys.exit(f"{lang}: no threshold meets the false-alarm limits; nothing written")
        path = export(lang, rows, threshold)
        probes(lang, rows, rules, path)


if __name__ == "__main__":
    main()
