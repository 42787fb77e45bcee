#include "checkers/projection.hpp"

#include <algorithm>

namespace omnilink::checkers {
namespace {

// The atoms (integers and strings) inside a logged value, as TLA+ text.
void atoms_of(const trace::Value& v, std::set<std::string>& out) {
  if (v.is<std::int64_t>() || v.is<std::string>()) {
    out.insert(trace::to_tla(v));
  } else if (v.is<trace::Tuple>()) {
    for (const auto& item : v.as<trace::Tuple>().items) atoms_of(item, out);
  } else if (v.is<trace::Set>()) {
    for (const auto& item : v.as<trace::Set>().items) atoms_of(item, out);
  } else if (v.is<trace::Map>()) {
    for (const auto& e : v.as<trace::Map>().entries) atoms_of(e.key, out), atoms_of(e.value, out);
  }
}

}  // namespace

std::set<std::string> logged_atoms(const history::ProblemOp& p, const std::vector<std::string>& fields, bool& unknown) {
  std::set<std::string> atoms;
  unknown = false;
  for (std::size_t k = 0; k < p.spec_op->params.size(); ++k) {
    if (std::find(fields.begin(), fields.end(), p.spec_op->params[k]) == fields.end()) continue;
    if (p.args[k] == nullptr) unknown = true;
    else atoms_of(*p.args[k], atoms);
  }
  return atoms;
}

bool kept_by_projection(const history::ProblemOp& p, const std::vector<std::string>& fields, const std::set<std::string>& values) {
  bool unknown = false;
  const std::set<std::string> atoms = logged_atoms(p, fields, unknown);
  // Removing every operation on a value outside `values` leaves those whose values all lie in it.
  return unknown || std::all_of(atoms.begin(), atoms.end(), [&](const std::string& a) { return values.count(a) > 0; });
}

std::set<std::string> projection_values(const history::Problem& decided, const SearchReport::Refused& refused,
                                        const std::vector<std::string>& fields) {
  std::set<std::string> values;
  bool unknown = false;
  auto add = [&](std::size_t thread, std::size_t position) {
    const std::set<std::string> atoms = logged_atoms(decided.threads[thread][position], fields, unknown);
    values.insert(atoms.begin(), atoms.end());
  };
  add(refused.op.first, refused.op.second);
  for (const auto& tie : refused.related) add(tie.op.first, tie.op.second);
  // The value in its place: where it is lost, that one; else whichever is there (a dequeue's
  // predecessor that came too late).
  if (refused.lost) values.insert(refused.lost->value);
  else if (refused.in_place) values.insert(refused.in_place->value);
  return values;
}

history::Problem project(const history::Problem& problem, const std::vector<std::string>& fields, const std::set<std::string>& values) {
  std::vector<history::Problem> parts =
      history::split_problem(problem, 2, [&](const history::ProblemOp& p) -> std::size_t { return kept_by_projection(p, fields, values) ? 0 : 1; });
  return std::move(parts[0]);
}

}  // namespace omnilink::checkers
