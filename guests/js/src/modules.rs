//! ES modules, as Node runs a file that imports or exports (or awaits at its top level) with no
//! `package.json` around it: no `require`, `module` or `exports` in its scope, `this` undefined,
//! strict mode, and its imports of Node's modules (`import * as fs from 'fs'`,
//! `import { createInterface } from 'node:readline'`, `import assert from 'assert'`) served from
//! what `require` gives: the module as the default export, its properties as named exports. Any
//! other specifier (a relative file, an npm package) fails as it fails in Node: not found.

use boa_engine::builtins::promise::PromiseState;
use boa_engine::module::{
    Module, ModuleLoader, ModuleRequest, Referrer, SyntheticModuleInitializer,
};
use boa_engine::object::builtins::JsArray;
use boa_engine::{Context, JsError, JsNativeError, JsResult, JsString, JsValue, Source, js_string};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The loader of Node's modules for an ES module: each specifier loaded once.
#[derive(Default)]
pub struct NodeModules {
    loaded: RefCell<HashMap<String, Module>>,
}

impl ModuleLoader for NodeModules {
    async fn load_imported_module(
        self: Rc<Self>,
        _referrer: Referrer,
        request: ModuleRequest,
        context: &RefCell<&mut Context>,
    ) -> JsResult<Module> {
        let name = request.specifier().to_std_string_escaped();
        if let Some(module) = self.loaded.borrow().get(&name) {
            return Ok(module.clone());
        }
        let mut context = context.borrow_mut();
        let module = node_module(&name, &mut context)?;
        self.loaded.borrow_mut().insert(name, module.clone());
        Ok(module)
    }
}

/// The module `name` as an ES module: `require(name)` as its default export and each of its
/// own enumerable properties as a named export (see the prelude's `__rb_import`).
fn node_module(name: &str, context: &mut Context) -> JsResult<Module> {
    let call = format!("__rb_import({})", crate::literal(name));
    let pair = context.eval(Source::from_bytes(&call))?;
    let pair = pair
        .as_object()
        .and_then(|o| JsArray::from_object(o.clone()).ok())
        .ok_or_else(|| JsNativeError::typ().with_message("rewardbox: __rb_import broke"))?;
    let exports = pair.get(0, context)?;
    let keys = pair.get(1, context)?;
    let keys = keys
        .as_object()
        .and_then(|o| JsArray::from_object(o.clone()).ok())
        .ok_or_else(|| JsNativeError::typ().with_message("rewardbox: __rb_import broke"))?;
    let mut names = vec![js_string!("default")];
    for i in 0..keys.length(context)? {
        let key = keys.get(i, context)?.to_string(context)?;
        if key != js_string!("default") {
            names.push(key);
        }
    }
    let initializer = SyntheticModuleInitializer::from_copy_closure_with_captures(
        |module, (exports, names): &(JsValue, Vec<JsString>), context| {
            module.set_export(&js_string!("default"), exports.clone())?;
            if let Some(object) = exports.as_object() {
                for name in names.iter().skip(1) {
                    module.set_export(name, object.get(name.clone(), context)?)?;
                }
            }
            Ok(())
        },
        (exports, names.clone()),
    );
    Ok(Module::synthetic(&names, initializer, None, None, context))
}

/// A module being run: its evaluation settles as the program's promise jobs run.
pub struct Running {
    module: Module,
    evaluation: boa_engine::object::builtins::JsPromise,
}

impl Running {
    /// Parses `source` as a module in the ES module's surroundings and starts loading, linking
    /// and evaluating it.
    pub fn start(source: &str, context: &mut Context) -> JsResult<Running> {
        context.eval(Source::from_bytes("__rb_as_es_module()"))?;
        let module = Module::parse(Source::from_bytes(source), None, context)?;
        let evaluation = module.load_link_evaluate(context);
        Ok(Running { module, evaluation })
    }

    /// The error its evaluation threw, once it has.
    pub fn failed(&self) -> JsResult<()> {
        match self.evaluation.state() {
            PromiseState::Rejected(error) => Err(JsError::from_opaque(error)),
            _ => Ok(()),
        }
    }

    /// Whether its evaluation is still waiting (a top-level `await` nothing will settle).
    pub fn unsettled(&self) -> bool {
        matches!(self.evaluation.state(), PromiseState::Pending)
    }

    /// Its namespace: what it exports.
    pub fn namespace(&self, context: &mut Context) -> boa_engine::JsObject {
        self.module.namespace(context)
    }
}
