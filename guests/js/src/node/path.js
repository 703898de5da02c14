// `require('path')`: Node's POSIX path functions (the sandbox's working directory is `/`).
// Written for rewardbox from Node's documentation; evaluated to a function of the prelude's
// `invalidArg` that returns the module.
(function (deps) {
  "use strict";
  function check(value, name) {
    if (typeof value !== "string") throw deps.invalidArg(name, value, "of type string");
  }
  // `.` and `..` resolved, repeated slashes merged; `..` above a relative start is kept.
  function collapse(path, absolute) {
    const out = [];
    for (const part of path.split("/")) {
      if (part === "" || part === ".") continue;
      if (part === "..") {
        if (out.length && out[out.length - 1] !== "..") out.pop();
        else if (!absolute) out.push("..");
      } else out.push(part);
    }
    return out.join("/");
  }
  const path = {
    sep: "/",
    delimiter: ":",
    normalize(p) {
      check(p, "path");
      if (p === "") return ".";
      const absolute = p.startsWith("/");
      const trailing = p.endsWith("/");
      let out = collapse(p, absolute);
      if (out === "" && !absolute) out = ".";
      if (out !== "" && trailing) out += "/";
      return (absolute ? "/" : "") + out;
    },
    join(...parts) {
      parts.forEach((p) => check(p, "path"));
      const joined = parts.filter((p) => p !== "").join("/");
      return joined === "" ? "." : path.normalize(joined);
    },
    resolve(...parts) {
      let resolved = "";
      for (let i = parts.length - 1; i >= -1 && !resolved.startsWith("/"); i--) {
        const p = i >= 0 ? parts[i] : "/";
        check(p, "paths[" + i + "]");
        if (p !== "") resolved = p + (resolved ? "/" + resolved : "");
      }
      return "/" + collapse(resolved, true);
    },
    isAbsolute(p) { check(p, "path"); return p.startsWith("/"); },
    relative(from, to) {
      const a = path.resolve(from).split("/").filter(Boolean), b = path.resolve(to).split("/").filter(Boolean);
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      return [...a.slice(i).map(() => ".."), ...b.slice(i)].join("/");
    },
    // Node's: the path up to the separator before its last part (a run of separators there
    // loses only its last one: `a//b` is `a/`).
    dirname(p) {
      check(p, "path");
      if (p === "") return ".";
      const trimmed = p.replace(/(.)\/+$/, "$1");
      const at = trimmed.lastIndexOf("/");
      if (at === -1) return ".";
      if (at === 0) return "/";
      if (at === 1 && trimmed.startsWith("//")) return "//";
      return trimmed.slice(0, at);
    },
    // The suffix is removed when the part ends with it; a part equal to it is kept when the
    // path has a separator (`basename('a/b', 'b')` is `b`, `basename('b', 'b')` is empty).
    basename(p, suffix) {
      check(p, "path");
      const trimmed = p.replace(/(.)\/+$/, "$1");
      let base = trimmed === "/" ? "" : trimmed.slice(trimmed.lastIndexOf("/") + 1);
      if (suffix !== undefined && base.endsWith(suffix) && (base !== suffix || !p.includes("/"))) {
        base = base.slice(0, base.length - suffix.length);
      }
      return base;
    },
    extname(p) {
      const base = path.basename(p);
      const at = base.lastIndexOf(".");
      return at <= 0 || (at === 1 && base === "..") ? "" : base.slice(at);
    },
    parse(p) {
      check(p, "path");
      const root = p.startsWith("/") ? "/" : "";
      const base = path.basename(p), ext = path.extname(p);
      let dir = p.replace(/(.)\/+$/, "$1").includes("/") ? path.dirname(p) : "";
      if (/^\/+$/.test(dir)) dir = "/";
      return { root, dir, base, ext, name: ext ? base.slice(0, base.length - ext.length) : base };
    },
    format(o) {
      const dir = o.dir || o.root || "";
      const base = o.base || (o.name || "") + (o.ext ? (o.ext.startsWith(".") ? "" : ".") + o.ext : "");
      return dir === "" ? base : dir === o.root ? dir + base : dir + "/" + base;
    },
    toNamespacedPath(p) { return p; },
  };
  path.posix = path;
  return path;
})
