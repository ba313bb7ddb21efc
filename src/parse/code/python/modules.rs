//! The files a Python file imports values from, read beside it: by relative path (`from .text
//! import DESCRIPTION`, `from . import text`) and by its package's own absolute path (`from
//! server.text import DESCRIPTION` in the package `server`). Each file is appended to the linted
//! one's text and parsed there alone, so one reader follows names across them and a node's
//! offset tells which file it is in.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use tree_sitter::{Node as Ts, Tree};

use super::super::{Imports, Language, normalized, syntax_tree_within};

/// At most this many files are read for the values one file imports, their imports included.
const MAX_IMPORTED_FILES: usize = 32;

/// How many directories up a package's root is looked for.
const MAX_PACKAGE_DEPTH: usize = 16;

/// What a module-level import binds a name to.
#[derive(Debug, Clone)]
pub(super) enum Target {
    /// `from M import NAME`: what the module `module` binds `NAME` to, else its submodule
    /// (`from . import text`).
    Name {
        module: Option<usize>,
        name: String,
        submodule: Option<usize>,
    },
    /// `import M as m`: the module itself.
    Module(usize),
}

/// What one file's top-level imports bind: names, and the modules `from M import *` takes all
/// names of.
#[derive(Debug, Default)]
pub(super) struct Links {
    pub names: HashMap<String, Target>,
    pub stars: Vec<usize>,
}

/// The linted file and the files read for it: their text one after the other (the linted
/// file first, at offset 0), where each is, its tree (the linted file's is its caller's), and
/// what its imports bind.
pub(super) struct Modules {
    pub text: String,
    pub ranges: Vec<Range<usize>>,
    pub trees: Vec<Tree>,
    pub links: Vec<Links>,
}

/// The files `source` imports from (with `imports`), breadth first up to
/// [`MAX_IMPORTED_FILES`].
pub(super) fn read(source: &str, tree: &Tree, imports: Option<&Imports>) -> Modules {
    let mut loader = Loader {
        imports,
        modules: Modules {
            text: source.to_string(),
            ranges: std::iter::once(0..source.len()).collect(),
            trees: Vec::new(),
            links: Vec::new(),
        },
        paths: vec![
            imports
                .map(|imports| normalized(imports.path))
                .unwrap_or_default(),
        ],
        roots: HashMap::new(),
    };
    if imports.is_none() {
        loader.modules.links.push(Links::default());
        return loader.modules;
    }
    let mut next = 0;
    while next < loader.paths.len() {
        let root = match next {
            0 => tree.root_node(),
            n => loader.modules.trees[n - 1].root_node(),
        };
        let statements = import_statements(&loader.modules.text, root);
        let path = loader.paths[next].clone();
        let links = loader.links(&path, statements);
        loader.modules.links.push(links);
        next += 1;
    }
    loader.modules
}

/// An import statement at a file's top level, as its words say.
enum Statement {
    /// `from ..a.b import c as d, e` (`level` 2; 0 for an absolute path), or `import *`.
    From {
        level: usize,
        parts: Vec<String>,
        names: Vec<(String, String)>,
        star: bool,
    },
    /// `import a.b as c`, or `import a` (bound to `a`).
    Import { parts: Vec<String>, bound: String },
}

fn import_statements(text: &str, root: Ts<'_>) -> Vec<Statement> {
    let words = |node: Ts<'_>| -> Vec<String> {
        text[node.byte_range()]
            .split('.')
            .map(|part| part.trim().to_string())
            .collect()
    };
    let mut statements = Vec::new();
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        let mut inner = statement.walk();
        let names: Vec<Ts<'_>> = statement
            .children_by_field_name("name", &mut inner)
            .collect();
        match statement.kind() {
            "import_from_statement" => {
                let Some(module) = statement.child_by_field_name("module_name") else {
                    continue;
                };
                let (level, parts) = match module.kind() {
                    "relative_import" => {
                        let mut parts_cursor = module.walk();
                        let mut level = 0;
                        let mut parts = Vec::new();
                        for child in module.named_children(&mut parts_cursor) {
                            match child.kind() {
                                "import_prefix" => level = text[child.byte_range()].len(),
                                "dotted_name" => parts = words(child),
                                _ => {}
                            }
                        }
                        (level, parts)
                    }
                    _ => (0, words(module)),
                };
                let names = names
                    .into_iter()
                    .filter_map(|name| match name.kind() {
                        "dotted_name" => {
                            let name = text[name.byte_range()].to_string();
                            Some((name.clone(), name))
                        }
                        "aliased_import" => Some((
                            text[name.child_by_field_name("name")?.byte_range()].to_string(),
                            text[name.child_by_field_name("alias")?.byte_range()].to_string(),
                        )),
                        _ => None,
                    })
                    .collect();
                let mut star_cursor = statement.walk();
                let star = statement
                    .named_children(&mut star_cursor)
                    .any(|child| child.kind() == "wildcard_import");
                statements.push(Statement::From {
                    level,
                    parts,
                    names,
                    star,
                });
            }
            "import_statement" => {
                for name in names {
                    let (parts, bound) = match name.kind() {
                        "aliased_import" => {
                            let (Some(module), Some(alias)) = (
                                name.child_by_field_name("name"),
                                name.child_by_field_name("alias"),
                            ) else {
                                continue;
                            };
                            (words(module), text[alias.byte_range()].to_string())
                        }
                        // `import a.b` binds `a`, whose `b` is read only as an attribute of a
                        // module `a` binds: left to `import a.b as b`.
                        _ if !text[name.byte_range()].contains('.') => {
                            let bound = text[name.byte_range()].to_string();
                            (vec![bound.clone()], bound)
                        }
                        _ => continue,
                    };
                    statements.push(Statement::Import { parts, bound });
                }
            }
            _ => {}
        }
    }
    statements
}

struct Loader<'a> {
    imports: Option<&'a Imports<'a>>,
    modules: Modules,
    paths: Vec<PathBuf>,
    /// The root a directory's package is in, by the directory.
    roots: HashMap<PathBuf, PathBuf>,
}

impl Loader<'_> {
    /// What the imports of the file at `path` bind, the files they name read.
    fn links(&mut self, path: &Path, statements: Vec<Statement>) -> Links {
        let mut links = Links::default();
        let directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
        for statement in statements {
            match statement {
                Statement::From {
                    level,
                    parts,
                    names,
                    star,
                } => {
                    let Some(base) = self.module_path(&directory, level, &parts) else {
                        continue;
                    };
                    let module = self.load_module(&base);
                    if star {
                        links.stars.extend(module);
                    }
                    // A package's names may be its submodules (`from . import text`).
                    let package = match module {
                        Some(module) => self.paths[module].ends_with("__init__.py"),
                        None => level > 0,
                    };
                    for (name, bound) in names {
                        let submodule = match package {
                            true => self.load_module(&base.join(&name)),
                            false => None,
                        };
                        let target = Target::Name {
                            module,
                            name,
                            submodule,
                        };
                        links.names.insert(bound, target);
                    }
                }
                Statement::Import { parts, bound } => {
                    if let Some(module) = self
                        .module_path(&directory, 0, &parts)
                        .and_then(|base| self.load_module(&base))
                    {
                        links.names.insert(bound, Target::Module(module));
                    }
                }
            }
        }
        links
    }

    /// The path (without `.py`) of the module `parts` names from a file in `directory`:
    /// relative to it (`level` dots), else to the root of the package the file is in.
    fn module_path(&mut self, directory: &Path, level: usize, parts: &[String]) -> Option<PathBuf> {
        let mut base = match level {
            0 => self.package_root(directory),
            _ => {
                let mut base = directory.to_path_buf();
                for _ in 1..level {
                    base.push("..");
                }
                base
            }
        };
        for part in parts {
            if part.is_empty() || part.contains(['/', '\\']) {
                return None;
            }
            base.push(part);
        }
        Some(normalized(&base))
    }

    /// The directory the outermost package holding `directory` is in: a module of the package
    /// is imported by its path from there. A directory that is no package is its own root (a
    /// script's directory).
    fn package_root(&mut self, directory: &Path) -> PathBuf {
        if let Some(root) = self.roots.get(directory) {
            return root.clone();
        }
        let mut root = directory.to_path_buf();
        for _ in 0..MAX_PACKAGE_DEPTH {
            if !self.exists(&root.join("__init__.py")) {
                break;
            }
            root = normalized(&root.join(".."));
        }
        self.roots.insert(directory.to_path_buf(), root.clone());
        root
    }

    fn exists(&self, path: &Path) -> bool {
        self.imports
            .is_some_and(|imports| (imports.read)(path).is_some())
    }

    /// The module at `base`: `base.py`, else the package `base/__init__.py`, read (once) when
    /// the limit of files allows.
    fn load_module(&mut self, base: &Path) -> Option<usize> {
        let mut file = base.as_os_str().to_owned();
        file.push(".py");
        let file = PathBuf::from(file);
        self.load(file)
            .or_else(|| self.load(base.join("__init__.py")))
    }

    fn load(&mut self, path: PathBuf) -> Option<usize> {
        if let Some(index) = self.paths.iter().position(|known| *known == path) {
            return Some(index);
        }
        if self.paths.len() > MAX_IMPORTED_FILES {
            return None;
        }
        let source = (self.imports?.read)(&path)?;
        let text = &mut self.modules.text;
        text.push('\n');
        let start = text.len();
        text.push_str(&source);
        let range = start..text.len();
        let tree = super::super::super::node::check_len(text)
            .ok()
            .and_then(|()| syntax_tree_within(text, Language::Python, range.clone()));
        let Some(tree) = tree else {
            text.truncate(start - 1);
            return None;
        };
        self.modules.ranges.push(range);
        self.modules.trees.push(tree);
        self.paths.push(path);
        Some(self.paths.len() - 1)
    }
}
