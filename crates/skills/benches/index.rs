//! Registry benchmarks: indexing 1,000 skills cold (a fresh registry, nothing cached in it),
//! rescanning after one skill changed, and matching a message against 200 cases.
//! Run: `cargo bench -p vibe-skills -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use vibe_skills::{Registry, RegistryConfig};

fn skill_md(i: usize) -> String {
    format!(
        "---\nname: skill-{i}\ndescription: Skill number {i} helps with topic {i} when the person asks about it.\n\
         license: MIT\nmetadata:\n  author: bench\n  version: \"1.0\"\nprofile_fields: [extracted, skills.skill-{i}]\n\
         voice_modes: [warm, direct]\ntriggers: [topic{i}, 话题{i}]\nethics:\n  forbidden: [diagnosis]\n\
         history: {{max_messages: 10, max_tokens: 4000}}\n---\n# Skill {i}\n\n{}",
        "Instructions that the index never reads.\n".repeat(50)
    )
}

fn make_root(dir: &Path, n: usize) {
    for i in 0..n {
        let skill = dir.join(format!("skill-{i}"));
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(skill.join("SKILL.md"), skill_md(i)).unwrap();
    }
}

fn open(dir: &Path) -> Registry {
    Registry::open(RegistryConfig { user: Some(dir.to_path_buf()), ..RegistryConfig::default() })
}

fn bench_index(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    make_root(tmp.path(), 1000);
    assert_eq!(open(tmp.path()).skills().len(), 1000);
    c.bench_function("index 1000 skills cold", |b| b.iter(|| open(tmp.path())));

    let reg = open(tmp.path());
    let file = tmp.path().join("skill-500/SKILL.md");
    let mut flip = false;
    c.bench_function("refresh 1000 skills after one edit", |b| {
        b.iter(|| {
            flip = !flip;
            let text = skill_md(500)
                .replace("Skill number", if flip { "Skill No." } else { "Skill number" });
            std::fs::write(&file, text).unwrap();
            reg.refresh()
        })
    });
}

fn bench_cases(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let skill = tmp.path().join("coach");
    std::fs::create_dir_all(skill.join("cases")).unwrap();
    std::fs::write(skill.join("SKILL.md"), "---\nname: coach\ndescription: d\n---\nbody\n")
        .unwrap();
    let topics =
        ["焦虑", "加班", "失眠", "分手", "孤独", "career", "money", "family", "健康", "拖延"];
    for i in 0..200 {
        let (a, b) = (topics[i % topics.len()], topics[(i * 7 + 3) % topics.len()]);
        let text = format!(
            "---\ntitle: 案例 {i}：{a}与{b}\nkeywords: [{a}, {b}]\n---\n来访者谈到{a}，也提到{b}。{}\n",
            "细节。".repeat(40)
        );
        std::fs::write(skill.join(format!("cases/case-{i}.md")), text).unwrap();
    }
    let reg = open(tmp.path());
    assert!(!reg.match_cases("coach", "最近加班很焦虑", 3).unwrap().is_empty());
    c.bench_function("match a message against 200 cases (index cached)", |b| {
        b.iter(|| reg.match_cases("coach", "最近加班很焦虑，晚上也睡不好，怎么办", 3).unwrap())
    });
}

criterion_group!(benches, bench_index, bench_cases);
criterion_main!(benches);
