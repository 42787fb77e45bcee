// Encoding of logged values into msgpack, following the trace grammar (paper Fig. 3): booleans,
// integers, strings, tuples (sequences), sets and maps, nested freely. Operation structs list their
// fields with omnilink_fields(); this header turns them into the trace's field map.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <msgpack.hpp>

#include "omnilink/trace_schema.hpp"

namespace omnilink {

// An operation type: a plain struct with a name and its fields.
//   struct Enqueue {
//     static constexpr std::string_view omnilink_name = "Enqueue";
//     std::int64_t elem = 0;
//     template <class V> void omnilink_fields(V&& field) const { field("elem", elem); }
//   };
template <class Op>
concept Operation = requires(const Op& op) {
  { Op::omnilink_name } -> std::convertible_to<std::string_view>;
  op.omnilink_fields([](std::string_view, const auto&) {});
};

// An operation that declares which of its fields are inputs (set by the workload before the call;
// the others are results). A run that dies while the call is in flight then logs it as pending
// with those inputs, and validation may complete it with any results the spec accepts:
//   static constexpr std::array<std::string_view, 1> omnilink_inputs{"elem"};
// An operation without the declaration keeps compiling; its pending records carry no inputs.
template <class Op>
concept DeclaresInputs = Operation<Op> && requires {
  { std::size(Op::omnilink_inputs) } -> std::convertible_to<std::size_t>;
  { *std::begin(Op::omnilink_inputs) } -> std::convertible_to<std::string_view>;
};

template <class Op>
bool is_input(std::string_view field) {
  if constexpr (DeclaresInputs<Op>) {
    for (std::string_view name : Op::omnilink_inputs)
      if (name == field) return true;
  }
  return false;
}

template <class T>
struct ValueCodec;  // specialised below for every loggable C++ type

template <class T>
concept Loggable = requires(msgpack::packer<msgpack::sbuffer>& pk, const T& v) {
  ValueCodec<T>::pack(pk, v);
};

template <class Packer, class T>
void pack_value(Packer& pk, const T& v) {
  static_assert(Loggable<T>,
                "this type cannot be logged: use bool, an integer, a string, a sequence "
                "(vector/array/deque/pair), a set or a map of loggable types");
  ValueCodec<T>::pack(pk, v);
}

template <>
struct ValueCodec<bool> {
  template <class P>
  static void pack(P& pk, bool v) { v ? pk.pack_true() : pk.pack_false(); }
};

template <std::integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, char>)
struct ValueCodec<T> {
  template <class P>
  static void pack(P& pk, T v) {
    if constexpr (std::is_signed_v<T>) {
      pk.pack_int64(static_cast<std::int64_t>(v));
    } else {
      pk.pack_uint64(static_cast<std::uint64_t>(v));
    }
  }
};

template <>
struct ValueCodec<std::string_view> {
  template <class P>
  static void pack(P& pk, std::string_view v) {
    pk.pack_str(static_cast<std::uint32_t>(v.size()));
    pk.pack_str_body(v.data(), static_cast<std::uint32_t>(v.size()));
  }
};
template <>
struct ValueCodec<std::string> {
  template <class P>
  static void pack(P& pk, const std::string& v) { ValueCodec<std::string_view>::pack(pk, v); }
};
template <>
struct ValueCodec<const char*> {
  template <class P>
  static void pack(P& pk, const char* v) { ValueCodec<std::string_view>::pack(pk, v); }
};

namespace detail {
template <class P, class Range>
void pack_sequence(P& pk, const Range& r) {
  pk.pack_array(static_cast<std::uint32_t>(std::size(r)));
  for (const auto& item : r) pack_value(pk, item);
}
template <class P, class Range>
void pack_set(P& pk, const Range& r) {
  // The payload is packed separately because an ext header carries its byte length first.
  msgpack::sbuffer payload;
  msgpack::packer<msgpack::sbuffer> inner(payload);
  pack_sequence(inner, r);
  pk.pack_ext(payload.size(), schema::kSetExtType);
  pk.pack_ext_body(payload.data(), static_cast<std::uint32_t>(payload.size()));
}
template <class P, class Range>
void pack_map(P& pk, const Range& r) {
  pk.pack_map(static_cast<std::uint32_t>(std::size(r)));
  for (const auto& [k, v] : r) {
    pack_value(pk, k);
    pack_value(pk, v);
  }
}
}  // namespace detail

template <class T, class A>
struct ValueCodec<std::vector<T, A>> {
  template <class P>
  static void pack(P& pk, const std::vector<T, A>& v) { detail::pack_sequence(pk, v); }
};
template <class T, std::size_t N>
struct ValueCodec<std::array<T, N>> {
  template <class P>
  static void pack(P& pk, const std::array<T, N>& v) { detail::pack_sequence(pk, v); }
};
template <class T, class A>
struct ValueCodec<std::deque<T, A>> {
  template <class P>
  static void pack(P& pk, const std::deque<T, A>& v) { detail::pack_sequence(pk, v); }
};
template <class A, class B>
struct ValueCodec<std::pair<A, B>> {
  template <class P>
  static void pack(P& pk, const std::pair<A, B>& v) {
    pk.pack_array(2);
    pack_value(pk, v.first);
    pack_value(pk, v.second);
  }
};
template <class T, class C, class A>
struct ValueCodec<std::set<T, C, A>> {
  template <class P>
  static void pack(P& pk, const std::set<T, C, A>& v) { detail::pack_set(pk, v); }
};
template <class T, class H, class E, class A>
struct ValueCodec<std::unordered_set<T, H, E, A>> {
  template <class P>
  static void pack(P& pk, const std::unordered_set<T, H, E, A>& v) { detail::pack_set(pk, v); }
};
template <class K, class V, class C, class A>
struct ValueCodec<std::map<K, V, C, A>> {
  template <class P>
  static void pack(P& pk, const std::map<K, V, C, A>& v) { detail::pack_map(pk, v); }
};
template <class K, class V, class H, class E, class A>
struct ValueCodec<std::unordered_map<K, V, H, E, A>> {
  template <class P>
  static void pack(P& pk, const std::unordered_map<K, V, H, E, A>& v) { detail::pack_map(pk, v); }
};

// Packs an operation's fields as a msgpack map {field name -> value}.
template <class P, Operation Op>
void pack_fields(P& pk, const Op& op) {
  std::uint32_t count = 0;
  op.omnilink_fields([&](std::string_view, const auto&) { ++count; });
  pk.pack_map(count);
  op.omnilink_fields([&](std::string_view name, const auto& value) {
    pack_value(pk, name);
    pack_value(pk, value);
  });
}

// Packs an operation's declared input fields as a msgpack map {field name -> value}.
template <class P, DeclaresInputs Op>
void pack_inputs(P& pk, const Op& op) {
  pk.pack_map(static_cast<std::uint32_t>(std::size(Op::omnilink_inputs)));
  op.omnilink_fields([&](std::string_view name, const auto& value) {
    if (!is_input<Op>(name)) return;
    pack_value(pk, name);
    pack_value(pk, value);
  });
}

}  // namespace omnilink
