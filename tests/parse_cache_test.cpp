// language/parse_cache: what an entry gives back is the parse itself (every module of the
// repository, compared field by field through a dump written here, independently of the cache's
// own walk), a hit is really used, and every kind of bad entry is a miss that the next parse
// repairs. The CLI's side (entries where the environment says, none when it says off) is in
// cli_test.cpp.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "language/parse_cache.hpp"
#include "language/syntax.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace omnilink::language;
using omnilink::testing::ScratchDir;

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every field a parse sets, in a text two parses must agree on (positions with their file).
class Dump {
 public:
  std::string operator()(const Module& m) {
    module(m);
    return out_.str();
  }

 private:
  void pos(const SourcePos& p) { out_ << "@" << (p.file ? *p.file : "-") << ":" << p.line << ":" << p.column << " "; }
  void symbol(const Symbol& s) {
    out_ << "sym " << s.name << "/" << s.arity << " ";
    pos(s.pos);
  }
  void bound(const Bound& b) {
    out_ << "bound" << (b.tuple ? "<<>> " : " ");
    for (const auto& n : b.names) symbol(*n);
    expr(b.set.get());
  }
  void expr(const Expr* e) {
    if (e == nullptr) {
      out_ << "null ";
      return;
    }
    out_ << "(" << static_cast<int>(e->kind) << " '" << e->text << "' ";
    pos(e->pos);
    if (e->kind == ExprKind::Literal) out_ << "lit " << e->value.text() << " ";
    for (const auto& k : e->kids) expr(k.get());
    for (const auto& b : e->bounds) bound(b);
    for (const auto& f : e->fields) out_ << "field " << f << " ";
    for (const auto& u : e->updates) {
      out_ << "update ";
      for (const auto& step : u.path) {
        expr(step.argument.get());
        out_ << "." << step.field << " ";
      }
      expr(u.value.get());
    }
    for (const auto& d : e->definitions) definition(*d);
    for (const auto& step : e->via) {
      out_ << "via " << step.name << " ";
      for (const auto& a : step.args) expr(a.get());
      pos(step.pos);
    }
    out_ << "other=" << e->has_other << " index=" << e->index << " builtin=" << static_cast<int>(e->builtin) << ") ";
  }
  void definition(const Definition& d) {
    out_ << "def " << d.name << " local=" << d.local << " constant=" << d.constant << " ";
    pos(d.pos);
    for (const auto& p : d.params) symbol(*p);
    expr(d.body.get());
    for (const auto& b : d.function_bounds) bound(b);
    for (const auto* a : {&d.type_annotation, &d.inputs_annotation, &d.groups_annotation, &d.guarantee_annotation}) out_ << "ann " << a->value_or("-") << " ";
  }
  void module(const Module& m) {
    out_ << "module " << m.name << " in " << m.file << " ";
    pos(m.pos);
    for (const auto& [name, at] : m.extends) {
      out_ << "extends " << name << " ";
      pos(at);
    }
    for (const auto* names : {&m.constants, &m.variables})
      for (const auto& d : *names) {
        out_ << "declared " << d.name << "/" << d.arity << " ";
        pos(d.pos);
      }
    for (const auto& d : m.definitions) definition(*d);
    for (const auto& i : m.instances) {
      out_ << "instance " << i.name << " of " << i.module << " local=" << i.local << " ";
      pos(i.pos);
      for (const auto& p : i.params) symbol(*p);
      for (const auto& [name, e] : i.substitutions) {
        out_ << name << "<- ";
        expr(e.get());
      }
    }
    for (const auto& inner : m.inner) module(*inner);
  }

  std::ostringstream out_;
};

// The cache on at a scratch directory for one test case, and off again after it.
struct CacheAt {
  ScratchDir scratch;
  fs::path dir = scratch / "parse";
  CacheAt() { use_parse_cache(dir); }
  ~CacheAt() { use_parse_cache(std::nullopt); }
  std::size_t entries() const {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".ast";
    return n;
  }
  fs::path only_entry() const {
    REQUIRE(entries() == 1);
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".ast") return e.path();
    return {};
  }
};

const std::string kSmall = "---- MODULE Small ----\nVARIABLE x\nInit == x = 1\nNext == x' = x + 1\n====\n";
const std::string kOther = "---- MODULE Small ----\nVARIABLE y\nInit == y = \"other\"\n====\n";

}  // namespace

TEST_CASE("an entry gives back the parse of every module in the repository, field for field", "[language][parse_cache]") {
  CacheAt cache;
  int modules = 0;
  for (const char* folder : {"tla", "tests/specs", "examples", "language/library", "bench"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(OMNILINK_SOURCE_DIR) / folder)) {
      if (entry.path().extension() != ".tla") continue;
      const std::string file = entry.path().string(), text = read_text(entry.path());
      INFO(file);
      Module parsed;
      try {
        parsed = parse_module(file, text);  // a miss: parsed, and kept
      } catch (const SyntaxError&) {
        continue;  // the tests' deliberately broken specs
      }
      const std::optional<Module> kept = cached_parse(file, text);
      REQUIRE(kept.has_value());
      CHECK(Dump()(*kept) == Dump()(parsed));
      ++modules;
    }
  }
  CHECK(modules > 40);
}

TEST_CASE("a hit is what the parse returns, its positions in the file asked for", "[language][parse_cache]") {
  CacheAt cache;
  // An entry for kSmall's text that holds kOther's module: only a hit can give it back.
  const Module other = parse_module("/elsewhere/Small.tla", kOther);
  keep_parse(kSmall, other);
  const Module got = parse_module("/here/Small.tla", kSmall);
  REQUIRE(got.variables.size() == 1);
  CHECK(got.variables[0].name == "y");
  CHECK(got.file == "/here/Small.tla");
  CHECK(got.definitions[0]->pos.text() == "/here/Small.tla:3:1");
}

TEST_CASE("an entry that is cut short, damaged, of another text or another layout is a miss that the parse rewrites",
          "[language][parse_cache]") {
  CacheAt cache;
  const Module fresh = parse_module("Small.tla", kSmall);
  const fs::path entry = cache.only_entry();
  const std::string whole = read_text(entry);
  const auto put = [&](const std::string& bytes) { std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes; };
  const auto flipped = [&](std::size_t at) {
    std::string bytes = whole;
    bytes[at] = static_cast<char>(bytes[at] ^ 0x5a);
    return bytes;
  };
  // Another text under this text's name (a hash collision): the text inside decides.
  keep_parse(kOther, parse_module("Small.tla", kOther));
  REQUIRE(cache.entries() == 2);
  std::string collision;
  for (const auto& e : fs::directory_iterator(cache.dir))
    if (e.path() != entry) collision = read_text(e.path());

  for (const auto& [what, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"cut short", whole.substr(0, whole.size() / 2)},
           {"empty", ""},
           {"not msgpack", "hello, this is not an entry\n"},
           {"the format version changed", flipped(whole.find("omnilink-parse-cache") + 20)},
           {"a byte of the module flipped", flipped(whole.size() - 3)},
           {"trailing bytes", whole + "x"},
           {"another text's entry", collision}}) {
    INFO(what);
    put(bytes);
    CHECK_FALSE(cached_parse("Small.tla", kSmall).has_value());
    const Module again = parse_module("Small.tla", kSmall);
    CHECK(Dump()(again) == Dump()(fresh));
    CHECK(read_text(entry) == whole);  // rewritten whole
  }
  // Whole and readable, but writable by others: anyone could have put any parse there.
  fs::permissions(entry, fs::perms::group_write, fs::perm_options::add);
  CHECK_FALSE(cached_parse("Small.tla", kSmall).has_value());
  fs::permissions(entry, fs::perms::group_write, fs::perm_options::remove);
  CHECK(cached_parse("Small.tla", kSmall).has_value());
}

TEST_CASE("with the cache off nothing is read or written, and a directory that cannot be written costs nothing",
          "[language][parse_cache]") {
  ScratchDir scratch;
  use_parse_cache(std::nullopt);
  CHECK_FALSE(parse_cache_dir().has_value());
  CHECK(parse_module("Small.tla", kSmall).name == "Small");
  CHECK_FALSE(cached_parse("Small.tla", kSmall).has_value());

  // Under a regular file: no directory can be made there.
  std::ofstream(scratch / "file") << "x";
  use_parse_cache(scratch / "file" / "parse");
  CHECK(parse_module("Small.tla", kSmall).name == "Small");
  CHECK_FALSE(cached_parse("Small.tla", kSmall).has_value());
  use_parse_cache(std::nullopt);
}

TEST_CASE("the cache keeps at most its bound of entries, dropping the oldest written", "[language][parse_cache]") {
  CacheAt cache;
  const std::size_t n = kParseCacheMaxEntries + 8;
  for (std::size_t k = 0; k < n; ++k) {
    const std::string text = "---- MODULE M ----\nA == " + std::to_string(k) + "\n====\n";
    keep_parse(text, parse_module("M.tla", text));
  }
  CHECK(cache.entries() == kParseCacheMaxEntries);
  const std::string newest = "---- MODULE M ----\nA == " + std::to_string(n - 1) + "\n====\n";
  CHECK(cached_parse("M.tla", newest).has_value());
}

TEST_CASE("the cache's directory comes from OMNILINK_CACHE_DIR, XDG_CACHE_HOME or HOME, and an empty OMNILINK_CACHE_DIR turns it off",
          "[language][parse_cache]") {
  const auto saved = [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  const auto cache_dir = saved("OMNILINK_CACHE_DIR"), xdg = saved("XDG_CACHE_HOME"), home = saved("HOME");
  ::setenv("OMNILINK_CACHE_DIR", "/c", 1);
  ::setenv("XDG_CACHE_HOME", "/x", 1);
  ::setenv("HOME", "/h", 1);
  CHECK(default_parse_cache_dir() == fs::path("/c/parse"));
  ::setenv("OMNILINK_CACHE_DIR", "", 1);
  CHECK_FALSE(default_parse_cache_dir().has_value());
  ::unsetenv("OMNILINK_CACHE_DIR");
  CHECK(default_parse_cache_dir() == fs::path("/x/omnilink/parse"));
  ::unsetenv("XDG_CACHE_HOME");
  CHECK(default_parse_cache_dir() == fs::path("/h/.cache/omnilink/parse"));
  ::unsetenv("HOME");
  CHECK_FALSE(default_parse_cache_dir().has_value());
  for (const auto& [name, value] : {std::pair{"OMNILINK_CACHE_DIR", cache_dir}, {"XDG_CACHE_HOME", xdg}, {"HOME", home}}) {
    if (value) ::setenv(name, value->c_str(), 1);
    else ::unsetenv(name);
  }
}
