//! The walk over the syntax tree that blanks what only TypeScript has: annotations, type
//! parameters and arguments, `as` / `satisfies` / `!`, modifiers, type-only declarations and
//! members, and refuses what would need generated code.

use crate::declarations::{self, Fate};
use crate::edits::Edits;
use oxc_ast::ast::{
    ArrowFunctionExpression, Class, ClassElement, ExportDefaultDeclarationKind,
    ExportFromDeclaration, ExportNamedDeclaration, ExportSpecifier, FormalParameter, FunctionType,
    ImportDeclaration, ImportDeclarationSpecifier, MethodDefinitionType, PropertyDefinitionType,
    PropertyKey, Statement, TSAsExpression, TSNonNullExpression, TSSatisfiesExpression,
    TSThisParameter, TSType, TSTypeAnnotation, TSTypeAssertion, TSTypeParameterDeclaration,
    TSTypeParameterInstantiation, VariableDeclarator,
};
use oxc_ast_visit::{Visit, walk};
use oxc_parser::Kind;
use oxc_span::{GetSpan, Span};

/// TypeScript's modifiers of a class member, blanked before its name (`static`, `async`, `get`,
/// `set` and `accessor` are JavaScript's and stay).
const MEMBER_MODIFIERS: [Kind; 7] = [
    Kind::Private,
    Kind::Public,
    Kind::Protected,
    Kind::Readonly,
    Kind::Override,
    Kind::Declare,
    Kind::Abstract,
];

/// The stripping walk: its edits, and the first construct it had to refuse.
pub struct Stripper<'s> {
    /// The output being written.
    pub edits: Edits<'s>,
    /// Node's message for the first construct that needs a transform, and where it is.
    pub refused: Option<(&'static str, Span)>,
}

impl<'s> Stripper<'s> {
    /// A walk writing into `edits`.
    pub fn new(edits: Edits<'s>) -> Stripper<'s> {
        Stripper {
            edits,
            refused: None,
        }
    }

    fn refuse(&mut self, message: &'static str, span: Span) {
        self.refused.get_or_insert((message, span));
    }

    /// Blanks a type-only import or export specifier and the comma after it.
    fn blank_specifier(&mut self, span: Span) {
        self.edits.blank_span(span);
        if let Some(comma) = self.edits.next_token(span.end)
            && comma.kind() == Kind::Comma
        {
            self.edits.blank(comma.start(), comma.end());
        }
    }

    /// Blanks the `?` or `!` after a name (`x?: T`, `x!: T`, `m?()`) in `start..end`.
    fn blank_marks(&mut self, start: u32, end: u32) {
        self.edits
            .blank_tokens(&[Kind::Question, Kind::Bang], start, end);
    }

    /// Blanks TypeScript's modifiers between a member's decorators and its name.
    fn blank_modifiers(&mut self, span: Span, decorators_end: Option<u32>, key: &PropertyKey) {
        let from = decorators_end.unwrap_or(span.start);
        self.edits
            .blank_tokens(&MEMBER_MODIFIERS, from, key.span().start);
    }
}

impl<'a> Visit<'a> for Stripper<'_> {
    fn visit_statement(&mut self, it: &Statement<'a>) {
        let type_only = match it {
            Statement::ImportDeclaration(i) => i.import_kind.is_type(),
            Statement::ExportNamedDeclaration(e) => e.export_kind.is_type(),
            Statement::ExportFromDeclaration(e) => e.export_kind.is_type(),
            Statement::ExportAllDeclaration(e) => e.export_kind.is_type(),
            Statement::TSNamespaceExportDeclaration(_) => true,
            Statement::ExportDefaultDeclaration(e) => match &e.declaration {
                ExportDefaultDeclarationKind::TSInterfaceDeclaration(_) => true,
                ExportDefaultDeclarationKind::FunctionDeclaration(f) => {
                    f.r#type == FunctionType::TSDeclareFunction || f.body.is_none()
                }
                _ => false,
            },
            Statement::TSExportAssignment(e) => {
                self.refuse(declarations::EXPORT_ASSIGNMENT, e.span);
                return;
            }
            _ => false,
        };
        if type_only {
            self.edits.blank_statement(it.span());
            return;
        }
        match declarations::statement_fate(it) {
            Some(Fate::Erase) => self.edits.blank_statement(it.span()),
            Some(Fate::Refuse(message, span)) => self.refuse(message, span),
            Some(Fate::Keep) | None => walk::walk_statement(self, it),
        }
    }

    fn visit_import_declaration(&mut self, it: &ImportDeclaration<'a>) {
        for specifier in it.specifiers.iter().flatten() {
            if let ImportDeclarationSpecifier::ImportSpecifier(s) = specifier
                && s.import_kind.is_type()
            {
                self.blank_specifier(s.span);
            }
        }
    }

    fn visit_export_named_declaration(&mut self, it: &ExportNamedDeclaration<'a>) {
        self.visit_export_specifiers(&it.specifiers);
    }

    fn visit_export_from_declaration(&mut self, it: &ExportFromDeclaration<'a>) {
        self.visit_export_specifiers(&it.specifiers);
    }

    fn visit_export_specifier(&mut self, it: &ExportSpecifier<'a>) {
        if it.export_kind.is_type() {
            self.blank_specifier(it.span);
        }
    }

    fn visit_ts_type_annotation(&mut self, it: &TSTypeAnnotation<'a>) {
        self.edits.blank_span(it.span);
    }

    fn visit_ts_type_parameter_declaration(&mut self, it: &TSTypeParameterDeclaration<'a>) {
        self.edits.blank_span(it.span);
    }

    fn visit_ts_type_parameter_instantiation(&mut self, it: &TSTypeParameterInstantiation<'a>) {
        self.edits.blank_span(it.span);
    }

    /// A type holds nothing that runs (its annotation or expression blanks it).
    fn visit_ts_type(&mut self, _: &TSType<'a>) {}

    fn visit_ts_this_parameter(&mut self, it: &TSThisParameter<'a>) {
        self.blank_specifier(it.span);
    }

    fn visit_ts_as_expression(&mut self, it: &TSAsExpression<'a>) {
        self.edits.blank(it.expression.span().end, it.span.end);
        self.visit_expression(&it.expression);
    }

    fn visit_ts_satisfies_expression(&mut self, it: &TSSatisfiesExpression<'a>) {
        self.edits.blank(it.expression.span().end, it.span.end);
        self.visit_expression(&it.expression);
    }

    fn visit_ts_non_null_expression(&mut self, it: &TSNonNullExpression<'a>) {
        self.edits.blank(it.expression.span().end, it.span.end);
        self.visit_expression(&it.expression);
    }

    fn visit_ts_type_assertion(&mut self, it: &TSTypeAssertion<'a>) {
        self.refuse(declarations::ANGLE_BRACKET_ASSERTION, it.span);
    }

    fn visit_formal_parameter(&mut self, it: &FormalParameter<'a>) {
        if it.accessibility.is_some() || it.readonly || it.r#override {
            self.refuse(declarations::PARAMETER_PROPERTY, it.span);
            return;
        }
        if it.optional {
            let end = it
                .type_annotation
                .as_ref()
                .map(|t| t.span.start)
                .or(it.initializer.as_ref().map(|e| e.span().start))
                .unwrap_or(it.span.end);
            self.blank_marks(it.pattern.span().end, end);
        }
        walk::walk_formal_parameter(self, it);
    }

    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if it.definite {
            let end = it
                .type_annotation
                .as_ref()
                .map_or(it.span.end, |t| t.span.start);
            self.blank_marks(it.id.span().end, end);
        }
        walk::walk_variable_declarator(self, it);
    }

    fn visit_class(&mut self, it: &Class<'a>) {
        // `abstract class`: the modifier may stand before the class's own span.
        let class_keyword = self.edits.find(Kind::Class, it.span.start, it.span.end);
        if let Some(keyword) = class_keyword {
            let from = it.decorators.last().map_or(0, |d| d.span.end);
            if let Some(modifier) = self.edits.find_last(Kind::Abstract, from, keyword.start()) {
                let between =
                    &self.edits.source()[modifier.end() as usize..keyword.start() as usize];
                if between.trim().is_empty() {
                    self.edits.blank(modifier.start(), modifier.end());
                }
            }
        }
        if let (Some(first), Some(last)) = (it.implements.first(), it.implements.last())
            && let Some(keyword) =
                self.edits
                    .find_last(Kind::Implements, it.span.start, first.span.start)
        {
            self.edits.blank(keyword.start(), last.span.end);
        }
        walk::walk_class(self, it);
    }

    fn visit_class_element(&mut self, it: &ClassElement<'a>) {
        match it {
            ClassElement::TSIndexSignature(s) => {
                self.edits.blank_statement(s.span);
                return;
            }
            ClassElement::PropertyDefinition(p) => {
                if p.declare || p.r#type == PropertyDefinitionType::TSAbstractPropertyDefinition {
                    self.edits.blank_statement(p.span);
                    return;
                }
                self.blank_modifiers(p.span, p.decorators.last().map(|d| d.span.end), &p.key);
                if p.optional || p.definite {
                    let end = p
                        .type_annotation
                        .as_ref()
                        .map(|t| t.span.start)
                        .or(p.value.as_ref().map(|v| v.span().start))
                        .unwrap_or(p.span.end);
                    self.blank_marks(p.key.span().end, end);
                }
            }
            ClassElement::MethodDefinition(m) => {
                if m.r#type == MethodDefinitionType::TSAbstractMethodDefinition
                    || m.value.body.is_none()
                {
                    self.edits.blank_statement(m.span);
                    return;
                }
                self.blank_modifiers(m.span, m.decorators.last().map(|d| d.span.end), &m.key);
                if m.optional {
                    let end = m
                        .value
                        .type_parameters
                        .as_ref()
                        .map_or(m.value.params.span.start, |t| t.span.start);
                    self.blank_marks(m.key.span().end, end);
                }
            }
            ClassElement::AccessorProperty(a) => {
                if a.r#type.is_abstract() {
                    self.edits.blank_statement(a.span);
                    return;
                }
                self.blank_modifiers(a.span, a.decorators.last().map(|d| d.span.end), &a.key);
                if a.definite {
                    let end = a
                        .type_annotation
                        .as_ref()
                        .map_or(a.span.end, |t| t.span.start);
                    self.blank_marks(a.key.span().end, end);
                }
            }
            ClassElement::StaticBlock(_) => {}
        }
        walk::walk_class_element(self, it);
    }

    /// An arrow function's return type that spans lines would leave its `=>` on a line after
    /// its `)`, which JavaScript forbids: the `)` moves to where the type ended.
    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        walk::walk_arrow_function_expression(self, it);
        let Some(returns) = &it.return_type else {
            return;
        };
        let Some(paren) = self
            .edits
            .find_last(Kind::RParen, it.span.start, returns.span.start)
        else {
            return;
        };
        let between = &self.edits.source()[paren.end() as usize..returns.span.end as usize];
        if between.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
            self.edits.blank(paren.start(), paren.end());
            self.edits.put(returns.span.end - 1, b')');
        }
    }
}
