//! `vibe skills new NAME`: a new skill folder with a valid SKILL.md to start from (product
//! text in Chinese, like the built-in skills), written into a root. Never overwrites.

use std::path::{Path, PathBuf};

use crate::discover::SKILL_FILE;
use crate::error::SkillsError;
use crate::name::check_name;

fn template(name: &str) -> String {
    format!(
        "---
name: {name}
description: 用一两句话写清这个技能做什么、在什么情况下使用（模型靠它决定何时启用）。
# 可选字段（说明见 docs/skills.md）：
# expert_persona: 这个技能的专家身份
# triggers: [关键词一, 关键词二]
# voice_modes: [warm, direct]
# profile_fields: [extracted]
# ethics:
#   forbidden: [不做医疗或法律诊断]
---

# {name}

在这里写给模型的指令：它扮演谁、按什么步骤帮助对方、什么时候该停下来倾听。
用用户使用的语言回答。

可选的子文件夹：rules/（规则）、scenarios/（场景）、cases/（案例）、references/（参考资料）、
scripts/（脚本）、assets/（素材），以及 tools.yaml（用到的工具）。
"
    )
}

/// Create `<root>/<name>/SKILL.md` and return the skill folder.
pub fn new_skill(root: &Path, name: &str) -> Result<PathBuf, SkillsError> {
    check_name(name)
        .map_err(|reason| SkillsError::InvalidName { name: name.to_string(), reason })?;
    let dir = root.join(name);
    if dir.exists() {
        return Err(SkillsError::AlreadyExists { path: dir });
    }
    std::fs::create_dir_all(&dir).map_err(|e| SkillsError::io(&dir, e))?;
    let file = dir.join(SKILL_FILE);
    std::fs::write(&file, template(name)).map_err(|e| SkillsError::io(&file, e))?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_skill_passes_check_and_is_never_overwritten() {
        let root = tempfile::tempdir().unwrap();
        let dir = new_skill(root.path(), "journal").unwrap();
        let report = crate::check::check_path(&dir);
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        assert!(matches!(
            new_skill(root.path(), "journal"),
            Err(SkillsError::AlreadyExists { .. })
        ));
        let err = new_skill(root.path(), "My Skill").unwrap_err();
        assert!(err.to_string().starts_with("invalid skill name `My Skill`: "), "{err}");
    }
}
