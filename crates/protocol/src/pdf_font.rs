//! The font of the PDF report: finding an installed CJK font (fontconfig's `fc-match` when it
//! is there, else well-known paths per OS), loading it, and measuring characters for line
//! wrapping. Never fetches anything from the network. Layout and drawing are `pdf`'s.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// Errors making a PDF report.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// No installed font covers Chinese text.
    #[error(
        "no CJK font found for the PDF report (looked at: {tried}); install one, e.g. `sudo apt install fonts-noto-cjk` on Debian/Ubuntu or `sudo dnf install google-noto-sans-cjk-fonts` on Fedora (macOS and Windows ship one), or export as html and print that"
    )]
    NoCjkFont { tried: String },
    /// A font file could not be read or parsed.
    #[error("cannot use the font {path} (face {index}): {reason}")]
    BadFont { path: PathBuf, index: u32, reason: String },
    /// The PDF library refused the document.
    #[error("cannot write the PDF report: {0}")]
    Render(String),
}

/// Well-known CJK font files (path, face index), most preferred first.
pub(crate) const WELL_KNOWN: &[(&str, u32)] = &[
    // Linux: Noto Sans CJK (face 2 is Simplified Chinese), WenQuanYi, Droid fallback.
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),
    ("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", 2),
    ("/usr/share/fonts/google-noto-sans-cjk-fonts/NotoSansCJK-Regular.ttc", 2),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 2),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/wenquanyi/wqy-microhei/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", 0),
    // macOS.
    ("/System/Library/Fonts/PingFang.ttc", 0),
    ("/System/Library/Fonts/Hiragino Sans GB.ttc", 0),
    ("/Library/Fonts/Arial Unicode.ttf", 0),
    // Windows.
    ("C:\\Windows\\Fonts\\msyh.ttc", 0),
    ("C:\\Windows\\Fonts\\simhei.ttf", 0),
];

/// A loaded font: its bytes for the PDF library and its advances for wrapping.
pub struct ReportFont {
    pub(crate) path: PathBuf,
    pub(crate) index: u32,
    pub(crate) data: Arc<Vec<u8>>,
}

impl ReportFont {
    /// Loads face `index` of `path`; refuses a font without Chinese glyphs.
    pub fn load(path: &Path, index: u32) -> Result<Self, PdfError> {
        let bad = |reason: String| PdfError::BadFont { path: path.to_path_buf(), index, reason };
        let data = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
        let face = ttf_parser::Face::parse(&data, index).map_err(|e| bad(e.to_string()))?;
        if face.glyph_index('中').is_none() {
            return Err(bad("it has no Chinese glyphs".into()));
        }
        Ok(Self { path: path.to_path_buf(), index, data: Arc::new(data) })
    }

    /// The first usable CJK font: fontconfig's choice, then the well-known paths.
    pub fn system() -> Result<Self, PdfError> {
        let mut tried = Vec::new();
        let candidates = fc_match().into_iter().chain(
            WELL_KNOWN.iter().map(|(p, i)| (PathBuf::from(p), *i)).filter(|(p, _)| p.exists()),
        );
        for (path, index) in candidates {
            match Self::load(&path, index) {
                Ok(font) => return Ok(font),
                Err(e) => tried.push(e.to_string()),
            }
        }
        if tried.is_empty() {
            tried.push("fc-match 'sans-serif:lang=zh-cn'".into());
            tried.extend(WELL_KNOWN.iter().map(|(p, _)| p.to_string()));
        }
        Err(PdfError::NoCjkFont { tried: tried.join(", ") })
    }

    /// A measure of characters at `size` points (the `.notdef` width for missing glyphs).
    pub(crate) fn advances(&self, size: f32) -> Result<impl Fn(char) -> f32 + '_, PdfError> {
        let face = ttf_parser::Face::parse(&self.data, self.index).map_err(|e| {
            PdfError::BadFont { path: self.path.clone(), index: self.index, reason: e.to_string() }
        })?;
        let scale = size / f32::from(face.units_per_em());
        Ok(move |c: char| {
            let glyph = face.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
            f32::from(face.glyph_hor_advance(glyph).unwrap_or(0)) * scale
        })
    }
}

/// fontconfig's Chinese sans-serif font, when `fc-match` is installed and answers.
fn fc_match() -> Option<(PathBuf, u32)> {
    let out = Command::new("fc-match")
        .args(["-f", "%{file}:%{index}", "sans-serif:lang=zh-cn"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let (file, index) = text.trim().rsplit_once(':')?;
    Some((PathBuf::from(file), index.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_font_without_chinese_or_a_missing_file_is_refused_by_name() {
        let tmp = tempfile::tempdir().unwrap();
        let missing = tmp.path().join("nope.ttf");
        let err = ReportFont::load(&missing, 0).err().unwrap().to_string();
        assert!(err.contains("nope.ttf") && err.contains("face 0"), "{err}");
        let junk = tmp.path().join("junk.ttf");
        std::fs::write(&junk, b"not a font").unwrap();
        let err = ReportFont::load(&junk, 0).err().unwrap().to_string();
        assert!(err.starts_with("cannot use the font") && err.contains("junk.ttf"), "{err}");
    }

    #[test]
    fn the_no_font_error_says_what_to_install() {
        let err = PdfError::NoCjkFont { tried: "x".into() }.to_string();
        assert!(err.contains("fonts-noto-cjk") && err.contains("looked at: x"), "{err}");
    }

    #[test]
    fn the_system_font_measures_cjk_wider_than_latin() {
        let font = ReportFont::system().unwrap();
        let adv = font.advances(10.0).unwrap();
        assert!((adv('中') - 10.0).abs() < 0.5, "a full-width character is one em");
        assert!(adv('i') < adv('中'));
    }
}
