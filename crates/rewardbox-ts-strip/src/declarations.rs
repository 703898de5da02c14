//! What becomes of a declaration: erased whole (it is only types), kept with its types blanked,
//! or refused, because running it would need code TypeScript generates (Node's strip-only mode
//! refuses the same).

use oxc_ast::ast::{
    Declaration, FunctionType, Statement, TSNamespaceDeclaration, TSNamespaceDeclarationBody,
    TSNamespaceDeclarationKind,
};
use oxc_span::Span;

/// What to do with a declaration.
pub enum Fate {
    /// Only types: blank it all.
    Erase,
    /// Runs: keep it, blanking the types inside it.
    Keep,
    /// Needs a transform: refuse the program, with Node's message, at this span.
    Refuse(&'static str, Span),
}

/// The message Node gives for a TypeScript enum.
pub const ENUM: &str = "TypeScript enum is not supported in strip-only mode";
/// The message Node gives for a namespace holding values.
pub const NAMESPACE: &str = "TypeScript namespace declaration is not supported in strip-only mode";
/// The message Node gives for `module M {}`.
pub const MODULE_KEYWORD: &str = "`module` keyword is not supported. Use `namespace` instead.";
/// The message Node gives for `import x = require(...)` and `import x = N.y`.
pub const IMPORT_EQUALS: &str =
    "TypeScript import equals declaration is not supported in strip-only mode";
/// The message Node gives for `export = x`.
pub const EXPORT_ASSIGNMENT: &str =
    "TypeScript export assignment is not supported in strip-only mode";
/// The message Node gives for `constructor(private x: number)`.
pub const PARAMETER_PROPERTY: &str =
    "TypeScript parameter property is not supported in strip-only mode";
/// The message Node gives for `<T>value`.
pub const ANGLE_BRACKET_ASSERTION: &str = "The angle-bracket syntax for type assertions, `<T>expr`, is not supported in type strip mode. Instead, use the 'as' syntax: `expr as T`.";

/// The fate of `declaration`.
pub fn fate(declaration: &Declaration) -> Fate {
    match declaration {
        Declaration::TSTypeAliasDeclaration(_)
        | Declaration::TSInterfaceDeclaration(_)
        | Declaration::TSExternalModuleDeclaration(_)
        | Declaration::TSGlobalDeclaration(_) => Fate::Erase,
        Declaration::VariableDeclaration(v) if v.declare => Fate::Erase,
        Declaration::FunctionDeclaration(f)
            if f.declare || f.r#type == FunctionType::TSDeclareFunction || f.body.is_none() =>
        {
            Fate::Erase
        }
        Declaration::ClassDeclaration(c) if c.declare => Fate::Erase,
        Declaration::TSEnumDeclaration(e) if e.declare => Fate::Erase,
        Declaration::TSEnumDeclaration(e) => Fate::Refuse(ENUM, e.span),
        Declaration::TSNamespaceDeclaration(n) => namespace(n),
        Declaration::TSImportEqualsDeclaration(i) if i.import_kind.is_type() => Fate::Erase,
        Declaration::TSImportEqualsDeclaration(i) => Fate::Refuse(IMPORT_EQUALS, i.span),
        Declaration::VariableDeclaration(_)
        | Declaration::FunctionDeclaration(_)
        | Declaration::ClassDeclaration(_) => Fate::Keep,
    }
}

/// A namespace is erased when it is declared or holds only types, else refused.
fn namespace(n: &TSNamespaceDeclaration) -> Fate {
    if n.declare {
        return Fate::Erase;
    }
    if n.kind == TSNamespaceDeclarationKind::Module {
        return Fate::Refuse(MODULE_KEYWORD, n.span);
    }
    let only_types = match &n.body {
        TSNamespaceDeclarationBody::TSNamespaceDeclaration(inner) => {
            matches!(namespace(inner), Fate::Erase)
        }
        TSNamespaceDeclarationBody::TSModuleBlock(block) => block
            .body
            .iter()
            .all(|s| matches!(statement_fate(s), Some(Fate::Erase))),
    };
    if only_types {
        Fate::Erase
    } else {
        Fate::Refuse(NAMESPACE, n.span)
    }
}

/// The fate of a statement that is (or exports) a declaration; `None` for any other statement.
pub fn statement_fate(statement: &Statement) -> Option<Fate> {
    if let Some(declaration) = statement.as_declaration() {
        return Some(fate(declaration));
    }
    match statement {
        Statement::ExportDeclaration(e) => Some(fate(&e.declaration)),
        _ => None,
    }
}
