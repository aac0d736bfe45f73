//! The profile document and a skill's saved state: `get_profile`, `set_profile_path` (checked
//! the way a person's edit is, `vibe_agent::profile_set`), `import_profile` and `skill_state`.

use vibe_store::LOCAL_USER;
use vibe_wire::command::{
    ImportProfileRequest, ProfileSet, ProfileView, SetProfilePathRequest, SkillStateRequest,
    SkillStateView,
};

use crate::app::{App, AppError};

impl App {
    /// `get_profile`.
    pub fn get_profile(&self) -> Result<ProfileView, AppError> {
        Ok(ProfileView { profile: self.store.profile(LOCAL_USER)? })
    }

    /// `set_profile_path`: one dotted path; a `birth_info` change is checked (place looked
    /// up, fields validated) before anything is stored. Answers the whole profile, and for a
    /// place looked up, the place (to confirm back) and whether the given zone is not its own.
    pub fn set_profile_path(
        &self,
        request: &SetProfilePathRequest,
    ) -> Result<ProfileSet, AppError> {
        let ready = vibe_agent::profile_set::set_profile_path(
            &self.store,
            LOCAL_USER,
            &request.path,
            request.value.clone(),
        )?;
        let (place, zone_warning) = super::place::birth_notes(ready);
        Ok(ProfileSet { profile: self.get_profile()?.profile, place, zone_warning })
    }

    /// `import_profile`: replace the whole profile with a document (legacy shapes are
    /// migrated first). Answers the profile as stored.
    pub fn import_profile(&self, request: ImportProfileRequest) -> Result<ProfileView, AppError> {
        Ok(ProfileView { profile: self.store.import_profile(LOCAL_USER, request.profile)? })
    }

    /// `skill_state`: a skill's saved state, one section or all.
    pub fn skill_state(&self, request: &SkillStateRequest) -> Result<SkillStateView, AppError> {
        let sections = request.section.clone().map(|s| vec![s]);
        let read = self.store.read_state(LOCAL_USER, &request.skill, sections.as_deref())?;
        Ok(SkillStateView {
            skill: request.skill.clone(),
            section: request.section.clone(),
            state: read.data,
        })
    }
}
