#include "language/parse_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <vector>

#include <msgpack.hpp>

#include "language/syntax.hpp"
#include "platform/build_id.hpp"
#include "platform/fnv1a.hpp"

namespace omnilink::language {
namespace fs = std::filesystem;

namespace {

constexpr const char* kMagic = "omnilink-parse-cache";
// An entry is a few times its text, and a text at most kDefaultMaxSpecBytes (4 MiB, unless
// OMNILINK_MAX_SPEC_BYTES allows more): a larger file is no entry.
constexpr std::uintmax_t kMaxEntryBytes = 64u << 20;

// The cache directory, when on; guarded because a loader may run on several threads.
std::mutex cache_mutex;
std::optional<fs::path> cache_dir;

// An entry is named by the hash of its build and its text, so that two builds used in turns keep
// an entry each; the build and text inside decide whether it is the one.
fs::path entry_path(const fs::path& dir, const std::string& build, const std::string& text) {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.ast", static_cast<unsigned long long>(fnv1a64(text, fnv1a64(build))));
  return dir / name;
}

/// Something in the module the layout cannot hold (a position in another file, a literal of a
/// kind the grammar never writes): the module is not kept.
struct NotKeepable {};

/// Writes the abstract syntax as nested msgpack arrays, each type's fields in the order
/// docs/parse-cache.md lists them: the fields a parse sets, which are those clone() copies.
class EntryWriter {
 public:
  EntryWriter(msgpack::packer<msgpack::sbuffer>& out, const std::string* file) : out_(out), file_(file) {}

  void module(const Module& m) {
    out_.pack_array(8);
    out_.pack(m.name);
    pos(m.pos);
    out_.pack_array(static_cast<std::uint32_t>(m.extends.size()));
    for (const auto& [name, at] : m.extends) {
      out_.pack_array(2);
      out_.pack(name);
      pos(at);
    }
    declared(m.constants);
    declared(m.variables);
    list(m.definitions, [&](const auto& d) { definition(*d); });
    list(m.instances, [&](const InstanceDecl& i) {
      out_.pack_array(6);
      out_.pack(i.name);
      list(i.params, [&](const auto& s) { symbol(*s); });
      out_.pack(i.module);
      list(i.substitutions, [&](const auto& s) {
        out_.pack_array(2);
        out_.pack(s.first);
        expr(s.second);
      });
      out_.pack(i.local);
      pos(i.pos);
    });
    list(m.inner, [&](const auto& inner) { module(*inner); });
  }

 private:
  template <class T, class F>
  void list(const std::vector<T>& items, F each) {
    out_.pack_array(static_cast<std::uint32_t>(items.size()));
    for (const T& item : items) each(item);
  }

  void pos(const SourcePos& p) {
    if (p.file == nullptr) {
      out_.pack_nil();
      return;
    }
    if (p.file != file_) throw NotKeepable{};
    out_.pack_array(2);
    out_.pack(p.line);
    out_.pack(p.column);
  }

  void optional_text(const std::optional<std::string>& s) {
    if (s) out_.pack(*s);
    else out_.pack_nil();
  }

  void declared(const std::vector<Declared>& names) {
    list(names, [&](const Declared& d) {
      out_.pack_array(3);
      out_.pack(d.name);
      pos(d.pos);
      out_.pack(d.arity);
    });
  }

  void symbol(const Symbol& s) {
    out_.pack_array(3);
    out_.pack(s.name);
    pos(s.pos);
    out_.pack(s.arity);
  }

  void bound(const Bound& b) {
    out_.pack_array(3);
    list(b.names, [&](const auto& s) { symbol(*s); });
    out_.pack(b.tuple);
    expr(b.set);
  }

  // The literals the grammar writes: booleans, integers, strings, BOOLEAN and STRING.
  void literal(const Value& v) {
    if (v.is_bool()) {
      out_.pack(v.as_bool());
    } else if (v.is_int()) {
      out_.pack(v.as_int());
    } else if (v.is_string()) {
      out_.pack(v.as_string());
    } else {
      const bool boolean_set = v.kind() == Value::Kind::Set && v.text() == "{FALSE, TRUE}";
      if (!boolean_set && !(v.kind() == Value::Kind::Symbolic && v.text() == "STRING")) throw NotKeepable{};
      out_.pack_array(1);
      out_.pack(boolean_set ? "BOOLEAN" : "STRING");
    }
  }

  void expr(const ExprPtr& e) {
    if (e) expr(*e);
    else out_.pack_nil();
  }

  void expr(const Expr& e) {
    out_.pack_array(13);
    out_.pack(static_cast<unsigned>(e.kind));
    pos(e.pos);
    out_.pack(e.text);
    if (e.kind == ExprKind::Literal) literal(e.value);
    else out_.pack_nil();
    list(e.kids, [&](const ExprPtr& k) { expr(k); });
    list(e.bounds, [&](const Bound& b) { bound(b); });
    list(e.fields, [&](const std::string& f) { out_.pack(f); });
    list(e.updates, [&](const ExceptUpdate& u) {
      out_.pack_array(2);
      list(u.path, [&](const ExceptUpdate::Step& step) {
        out_.pack_array(2);
        expr(step.argument);
        out_.pack(step.field);
      });
      expr(u.value);
    });
    list(e.definitions, [&](const auto& d) { definition(*d); });
    list(e.via, [&](const InstanceStep& step) {
      out_.pack_array(3);
      out_.pack(step.name);
      list(step.args, [&](const ExprPtr& a) { expr(a); });
      pos(step.pos);
    });
    out_.pack(e.has_other);
    out_.pack(e.index);
    out_.pack(static_cast<unsigned>(e.builtin));
  }

  void definition(const Definition& d) {
    out_.pack_array(11);
    out_.pack(d.name);
    pos(d.pos);
    list(d.params, [&](const auto& s) { symbol(*s); });
    expr(d.body);
    list(d.function_bounds, [&](const Bound& b) { bound(b); });
    out_.pack(d.local);
    optional_text(d.type_annotation);
    optional_text(d.inputs_annotation);
    optional_text(d.groups_annotation);
    optional_text(d.guarantee_annotation);
    out_.pack(d.constant);
  }

  msgpack::packer<msgpack::sbuffer>& out_;
  const std::string* file_;
};

/// An entry that does not read as the layout says: a miss.
struct Malformed {};

/// Reads what EntryWriter wrote, field by field in the same order, checking every type and
/// range: an entry is a file anyone could have damaged.
class EntryReader {
 public:
  EntryReader(const std::string* file) : file_(file) {}

  Module module(const msgpack::object& o) {
    const msgpack::object* f = fields(o, 8);
    Module m;
    m.file = *file_;
    m.name = text(f[0]);
    m.pos = pos(f[1]);
    each(f[2], [&](const msgpack::object& x) {
      const msgpack::object* e = fields(x, 2);
      m.extends.emplace_back(text(e[0]), pos(e[1]));
    });
    m.constants = declared(f[3]);
    m.variables = declared(f[4]);
    each(f[5], [&](const msgpack::object& x) { m.definitions.push_back(definition(x)); });
    each(f[6], [&](const msgpack::object& x) {
      const msgpack::object* i = fields(x, 6);
      InstanceDecl decl;
      decl.name = text(i[0]);
      each(i[1], [&](const msgpack::object& s) { decl.params.push_back(symbol(s)); });
      decl.module = text(i[2]);
      each(i[3], [&](const msgpack::object& s) {
        const msgpack::object* pair = fields(s, 2);
        decl.substitutions.emplace_back(text(pair[0]), expr(pair[1]));
      });
      decl.local = boolean(i[4]);
      decl.pos = pos(i[5]);
      m.instances.push_back(std::move(decl));
    });
    each(f[7], [&](const msgpack::object& x) { m.inner.push_back(std::make_unique<Module>(module(x))); });
    return m;
  }

 private:
  static const msgpack::object* fields(const msgpack::object& o, std::uint32_t n) {
    if (o.type != msgpack::type::ARRAY || o.via.array.size != n) throw Malformed{};
    return o.via.array.ptr;
  }
  template <class F>
  static void each(const msgpack::object& o, F f) {
    if (o.type != msgpack::type::ARRAY) throw Malformed{};
    for (std::uint32_t k = 0; k < o.via.array.size; ++k) f(o.via.array.ptr[k]);
  }
  static std::string text(const msgpack::object& o) {
    if (o.type != msgpack::type::STR) throw Malformed{};
    return {o.via.str.ptr, o.via.str.size};
  }
  static std::uint64_t number(const msgpack::object& o, std::uint64_t most = UINT64_MAX) {
    if (o.type != msgpack::type::POSITIVE_INTEGER || o.via.u64 > most) throw Malformed{};
    return o.via.u64;
  }
  static bool boolean(const msgpack::object& o) {
    if (o.type != msgpack::type::BOOLEAN) throw Malformed{};
    return o.via.boolean;
  }
  std::optional<std::string> optional_text(const msgpack::object& o) const {
    if (o.is_nil()) return std::nullopt;
    return text(o);
  }

  SourcePos pos(const msgpack::object& o) const {
    if (o.is_nil()) return {};
    const msgpack::object* f = fields(o, 2);
    return {file_, static_cast<std::uint32_t>(number(f[0], UINT32_MAX)), static_cast<std::uint32_t>(number(f[1], UINT32_MAX))};
  }

  std::vector<Declared> declared(const msgpack::object& o) const {
    std::vector<Declared> out;
    each(o, [&](const msgpack::object& x) {
      const msgpack::object* f = fields(x, 3);
      out.push_back({text(f[0]), pos(f[1]), number(f[2])});
    });
    return out;
  }

  std::unique_ptr<Symbol> symbol(const msgpack::object& o) const {
    const msgpack::object* f = fields(o, 3);
    return std::make_unique<Symbol>(Symbol{text(f[0]), pos(f[1]), number(f[2])});
  }

  Bound bound(const msgpack::object& o) {
    const msgpack::object* f = fields(o, 3);
    Bound b;
    each(f[0], [&](const msgpack::object& s) { b.names.push_back(symbol(s)); });
    b.tuple = boolean(f[1]);
    b.set = expr(f[2]);
    return b;
  }

  static Value literal(const msgpack::object& o) {
    switch (o.type) {
      case msgpack::type::BOOLEAN: return Value::boolean(o.via.boolean);
      case msgpack::type::POSITIVE_INTEGER: return Value::integer(static_cast<std::int64_t>(number(o, INT64_MAX)));
      case msgpack::type::NEGATIVE_INTEGER: return Value::integer(o.via.i64);
      case msgpack::type::STR: return Value::interned(text(o));  // as the parser makes a string literal
      case msgpack::type::ARRAY: {
        const std::string set = text(fields(o, 1)[0]);
        if (set == "STRING") return Value::strings();
        if (set == "BOOLEAN") return Value::set({Value::boolean(false), Value::boolean(true)});
        throw Malformed{};
      }
      default: throw Malformed{};
    }
  }

  ExprPtr expr(const msgpack::object& o) {
    if (o.is_nil()) return nullptr;
    // The parse stops at kMaxExpressionNesting, so that what recurses over a module later cannot
    // run out of stack; an entry is held to it too.
    const ExpressionLevel level(depth_);
    if (level.too_deep()) throw Malformed{};
    const msgpack::object* f = fields(o, 13);
    auto e = std::make_unique<Expr>();
    e->kind = static_cast<ExprKind>(number(f[0], static_cast<unsigned>(ExprKind::Unsupported)));
    if (bound_by_loader(e->kind)) throw Malformed{};
    e->pos = pos(f[1]);
    e->text = text(f[2]);
    if (e->kind == ExprKind::Literal) e->value = literal(f[3]);
    each(f[4], [&](const msgpack::object& k) { e->kids.push_back(required(expr(k))); });
    each(f[5], [&](const msgpack::object& b) { e->bounds.push_back(bound(b)); });
    each(f[6], [&](const msgpack::object& s) { e->fields.push_back(text(s)); });
    each(f[7], [&](const msgpack::object& x) {
      const msgpack::object* u = fields(x, 2);
      ExceptUpdate update;
      each(u[0], [&](const msgpack::object& s) {
        const msgpack::object* step = fields(s, 2);
        update.path.push_back({expr(step[0]), text(step[1]), {}});
      });
      update.value = required(expr(u[1]));
      e->updates.push_back(std::move(update));
    });
    each(f[8], [&](const msgpack::object& d) { e->definitions.push_back(definition(d)); });
    each(f[9], [&](const msgpack::object& x) {
      const msgpack::object* s = fields(x, 3);
      InstanceStep step{text(s[0]), {}, {}};
      each(s[1], [&](const msgpack::object& a) { step.args.push_back(required(expr(a))); });
      step.pos = pos(s[2]);
      e->via.push_back(std::move(step));
    });
    e->has_other = boolean(f[10]);
    e->index = number(f[11]);
    e->builtin = static_cast<Builtin>(number(f[12], static_cast<unsigned>(Builtin::Cdot)));
    return e;
  }

  // The kinds only the loader makes, each pointing into a loaded spec: never in a parse.
  static bool bound_by_loader(ExprKind kind) {
    return kind == ExprKind::RefVariable || kind == ExprKind::RefPrimed || kind == ExprKind::RefBound ||
           kind == ExprKind::RefDefinition || kind == ExprKind::RefOperatorParam;
  }

  static ExprPtr required(ExprPtr e) {
    if (!e) throw Malformed{};
    return e;
  }

  std::unique_ptr<Definition> definition(const msgpack::object& o) {
    const msgpack::object* f = fields(o, 11);
    auto d = std::make_unique<Definition>();
    d->name = text(f[0]);
    d->pos = pos(f[1]);
    each(f[2], [&](const msgpack::object& s) { d->params.push_back(symbol(s)); });
    d->body = expr(f[3]);
    each(f[4], [&](const msgpack::object& b) { d->function_bounds.push_back(bound(b)); });
    d->local = boolean(f[5]);
    d->type_annotation = optional_text(f[6]);
    d->inputs_annotation = optional_text(f[7]);
    d->groups_annotation = optional_text(f[8]);
    d->guarantee_annotation = optional_text(f[9]);
    d->constant = boolean(f[10]);
    return d;
  }

  const std::string* file_;
  int depth_ = 0;
};

// How deep an entry's msgpack arrays may nest: an expression is at most five levels below its
// parent (an EXCEPT path's argument), and the module's own lists a few more.
constexpr std::size_t kMaxEntryDepth = 5 * kMaxExpressionNesting + 16;

// Past kParseCacheMaxEntries, the oldest written entries go; so do temporary files an hour old,
// left by a process stopped while writing one.
void remove_oldest_entries(const fs::path& dir) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  const fs::file_time_type an_hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::file_time_type written = it->last_write_time(ec);
    if (ec) continue;
    if (it->path().extension() == ".ast") entries.emplace_back(written, it->path());
    else if (it->path().extension() == ".tmp" && written < an_hour_ago) fs::remove(it->path(), ec);
  }
  if (entries.size() <= kParseCacheMaxEntries) return;
  std::sort(entries.begin(), entries.end());
  for (std::size_t k = 0; k + kParseCacheMaxEntries < entries.size(); ++k) fs::remove(entries[k].second, ec);
}

/// The bytes of the entry at `path` when it is one this user may trust: a regular file of theirs
/// that no one else may write (another user's file could hold any parse of a known text), of at
/// most kMaxEntryBytes.
std::optional<std::string> read_own_file(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  std::optional<std::string> bytes;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0 &&
      static_cast<std::uintmax_t>(st.st_size) <= kMaxEntryBytes) {
    std::string read(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < read.size()) {
      const ssize_t n = ::read(fd, read.data() + got, read.size() - got);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    if (got == read.size()) bytes = std::move(read);
  }
  ::close(fd);
  return bytes;
}

}  // namespace

std::optional<fs::path> default_parse_cache_dir() {
  if (const char* dir = std::getenv("OMNILINK_CACHE_DIR")) {
    if (*dir == '\0') return std::nullopt;
    return fs::absolute(dir) / "parse";  // one place for every process, wherever it runs
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') return fs::path(xdg) / "omnilink" / "parse";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/') return fs::path(home) / ".cache" / "omnilink" / "parse";
  return std::nullopt;
}

void use_parse_cache(std::optional<fs::path> dir) {
  std::lock_guard lock(cache_mutex);
  cache_dir = platform::executable_build_id() ? std::move(dir) : std::nullopt;
}

std::optional<fs::path> parse_cache_dir() {
  std::lock_guard lock(cache_mutex);
  return cache_dir;
}

std::optional<Module> cached_parse(const std::string& file, const std::string& text) {
  const std::optional<fs::path> dir = parse_cache_dir();
  if (!dir) return std::nullopt;
  const std::string& build = *platform::executable_build_id();
  const std::optional<std::string> bytes = read_own_file(entry_path(*dir, build, text));
  if (!bytes) return std::nullopt;
  // No array or string longer than the entry itself, no maps, nothing deeper than a parse.
  const msgpack::unpack_limit limits(bytes->size(), 0, bytes->size(), 0, 0, kMaxEntryDepth);
  try {
    std::size_t offset = 0;
    const auto next = [&] { return msgpack::unpack(bytes->data(), bytes->size(), offset, nullptr, nullptr, limits); };
    const auto read_text = [&] {
      const msgpack::object_handle h = next();
      if (h.get().type != msgpack::type::STR) throw Malformed{};
      return std::string(h.get().via.str.ptr, h.get().via.str.size);
    };
    const auto read_number = [&] {
      const msgpack::object_handle h = next();
      if (h.get().type != msgpack::type::POSITIVE_INTEGER) throw Malformed{};
      return h.get().via.u64;
    };
    if (read_text() != kMagic || read_number() != static_cast<std::uint64_t>(kParseCacheFormat)) return std::nullopt;
    if (read_text() != build || read_text() != grammar_description() || read_text() != text) return std::nullopt;
    // A damaged byte of the module could still read as a module, another one.
    if (read_number() != fnv1a64(std::string_view(*bytes).substr(offset))) return std::nullopt;
    const msgpack::object_handle module = next();
    if (offset != bytes->size()) return std::nullopt;
    return EntryReader(intern_file_name(file)).module(module.get());
  } catch (const Malformed&) {
    return std::nullopt;
  } catch (const msgpack::unpack_error&) {  // cut short, or past the limits
    return std::nullopt;
  } catch (const std::bad_alloc&) {
    return std::nullopt;
  }
}

void keep_parse(const std::string& text, const Module& module) {
  const std::optional<fs::path> dir = parse_cache_dir();
  if (!dir) return;
  const std::string& build = *platform::executable_build_id();
  msgpack::sbuffer tree;
  msgpack::packer<msgpack::sbuffer> tree_out(tree);
  try {
    EntryWriter(tree_out, intern_file_name(module.file)).module(module);
  } catch (const NotKeepable&) {
    return;
  }
  msgpack::sbuffer buffer;
  msgpack::packer<msgpack::sbuffer> out(buffer);
  out.pack(kMagic);
  out.pack(kParseCacheFormat);
  out.pack(build);
  out.pack(grammar_description());
  out.pack(text);
  out.pack(fnv1a64(std::string_view(tree.data(), tree.size())));
  buffer.write(tree.data(), tree.size());

  std::error_code ec;
  // Private to the user (mode 0700): an entry is what the next process takes for its spec.
  fs::create_directories(dir->parent_path(), ec);
  if (::mkdir(dir->c_str(), 0700) != 0 && errno != EEXIST) return;
  // Through a file of this process's and thread's own, renamed over the entry: a reader sees a
  // whole entry or none, and two writers of the same text do not write into each other's.
  static std::atomic<unsigned> written{0};
  const fs::path entry = entry_path(*dir, build, text);
  const fs::path temporary = entry.string() + "." + std::to_string(::getpid()) + "-" + std::to_string(written++) + ".tmp";
  {
    std::ofstream write(temporary, std::ios::binary | std::ios::trunc);
    write.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (!write || !write.flush()) {
      write.close();
      fs::remove(temporary, ec);
      return;
    }
  }
  fs::rename(temporary, entry, ec);
  if (ec) return (void)fs::remove(temporary, ec);
  remove_oldest_entries(*dir);
}

}  // namespace omnilink::language
