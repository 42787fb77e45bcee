// The Porcupine side of bench/porcupine_comparison: reads omnilink history files
// (docs/history-format.md) and checks each with Porcupine's checker and the model named by -model,
// written here in Go for the same semantics as omnilink's TLA+ spec of it:
//
//	kv        tla/specs/KV.tla        Get/Put/Append on string keys, partitioned by key (Porcupine's kv model)
//	register  tla/specs/Register.tla  Read/Write/CAS from 0 (etcd's nil, as etcd_from_jepsen writes it)
//	rangeset  tla/specs/RangeSet.tla  the OmniLink paper's Fig. 4 set with range queries
//	stack     tla/specs/Stack.tla     Push/Pop (a failed pop: ok false, the stack empty)
//	queue     tla/specs/LinearizableQueue.tla  Enqueue/Dequeue (likewise)
//
// Built outside the omnilink repository, against a checkout of Porcupine (go.mod's replace).
// Prints one line per file: "name verdict" (ok or illegal). Pending operations return at the end of
// time and failed ones (no effect, no result) are left out, as omnilink reads them.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/anishathalye/porcupine"
)

type line struct {
	Process json.RawMessage            `json:"process"`
	Op      string                     `json:"op"`
	Fields  map[string]json.RawMessage `json:"fields"`
	Start   int64                      `json:"start"`
	End     *int64                     `json:"end"`
	Outcome string                     `json:"outcome"`
}

// call is one operation's input and output alike: the model reads the fields it knows.
type call struct {
	op     string
	fields map[string]json.RawMessage
}

func (c call) str(name string) string {
	var s string
	json.Unmarshal(c.fields[name], &s)
	return s
}

func (c call) num(name string) int {
	var n int
	json.Unmarshal(c.fields[name], &n)
	return n
}

func (c call) flag(name string) bool {
	var b bool
	json.Unmarshal(c.fields[name], &b)
	return b
}

func (c call) has(name string) bool { _, ok := c.fields[name]; return ok }

func (c call) set(name string) uint32 {
	var s struct {
		Set []int `json:"$set"`
	}
	json.Unmarshal(c.fields[name], &s)
	var bits uint32
	for _, k := range s.Set {
		bits |= 1 << uint(k)
	}
	return bits
}

var kvModel = porcupine.Model{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		for _, o := range history {
			k := o.Input.(call).str("key")
			byKey[k] = append(byKey[k], o)
		}
		keys := make([]string, 0, len(byKey))
		for k := range byKey {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([][]porcupine.Operation, 0, len(keys))
		for _, k := range keys {
			parts = append(parts, byKey[k])
		}
		return parts
	},
	Init: func() interface{} { return "" },
	Step: func(state, input, output interface{}) (bool, interface{}) {
		c, s := input.(call), state.(string)
		switch c.op {
		case "Get":
			return !c.has("value") || c.str("value") == s, s
		case "Put":
			return true, c.str("value")
		default: // Append
			return true, s + c.str("value")
		}
	},
	Hash: func(state interface{}) uint64 {
		h := fnv.New64a()
		h.Write([]byte(state.(string)))
		return h.Sum64()
	},
}

var registerModel = porcupine.Model{
	Init: func() interface{} { return 0 },
	Step: func(state, input, output interface{}) (bool, interface{}) {
		c, s := input.(call), state.(int)
		switch c.op {
		case "Read":
			return c.num("value") == s, s
		case "Write":
			return true, c.num("value")
		default: // CAS: a pending one logged no ok and may have gone either way
			swapped := c.num("expected") == s
			if c.has("ok") && c.flag("ok") != swapped {
				return false, s
			}
			if swapped {
				return true, c.num("new")
			}
			return true, s
		}
	},
	Hash: func(state interface{}) uint64 { return uint64(state.(int)) },
}

var rangeSetModel = porcupine.Model{
	Init: func() interface{} { return uint32(0) },
	Step: func(state, input, output interface{}) (bool, interface{}) {
		c, s := input.(call), state.(uint32)
		bit := uint32(1) << uint(c.num("key"))
		switch c.op {
		case "Contains":
			return c.flag("found") == (s&bit != 0), s
		case "Insert":
			return true, s | bit
		case "InsertIfAbsent":
			return c.flag("inserted") == (s&bit == 0), s | bit
		case "Erase":
			return c.flag("erased") == (s&bit != 0), s &^ bit
		default: // RangeQuery
			var inRange uint32
			for k := c.num("low"); k <= c.num("high"); k++ {
				inRange |= 1 << uint(k)
			}
			return c.set("found") == s&inRange, s
		}
	},
	Hash: func(state interface{}) uint64 { return uint64(state.(uint32)) },
}

// A stack or queue of ints as Porcupine states: values, copied on change; hashed over their items.
func sequenceModel(push, pop string, lifo bool) porcupine.Model {
	return porcupine.Model{
		Init: func() interface{} { return []int{} },
		Step: func(state, input, output interface{}) (bool, interface{}) {
			c, s := input.(call), state.([]int)
			if c.op == push {
				next := make([]int, len(s), len(s)+1)
				copy(next, s)
				return true, append(next, c.num("elem"))
			}
			if !c.flag("ok") {
				return len(s) == 0, s
			}
			if len(s) == 0 {
				return false, s
			}
			if lifo {
				return s[len(s)-1] == c.num("elem"), s[:len(s)-1]
			}
			return s[0] == c.num("elem"), s[1:]
		},
		Equal: func(a, b interface{}) bool {
			x, y := a.([]int), b.([]int)
			if len(x) != len(y) {
				return false
			}
			for k := range x {
				if x[k] != y[k] {
					return false
				}
			}
			return true
		},
		Hash: func(state interface{}) uint64 {
			h := fnv.New64a()
			for _, v := range state.([]int) {
				var b [8]byte
				for k := 0; k < 8; k++ {
					b[k] = byte(uint64(v) >> (8 * k))
				}
				h.Write(b[:])
			}
			return h.Sum64()
		},
	}
}

func read(path string) ([]porcupine.Operation, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	scanner := bufio.NewScanner(file)
	scanner.Buffer(make([]byte, 1<<20), 1<<26)
	clients := map[string]int{}
	var ops []porcupine.Operation
	for n := 0; scanner.Scan(); n++ {
		if n == 0 || len(scanner.Bytes()) == 0 {
			continue // the header
		}
		var l line
		if err := json.Unmarshal(scanner.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n+1, err)
		}
		if l.Outcome == "failed" {
			continue
		}
		if _, ok := clients[string(l.Process)]; !ok {
			clients[string(l.Process)] = len(clients)
		}
		end := int64(math.MaxInt64)
		if l.End != nil {
			end = *l.End
		}
		c := call{l.Op, l.Fields}
		ops = append(ops, porcupine.Operation{ClientId: clients[string(l.Process)], Input: c, Output: c, Call: l.Start, Return: end})
	}
	return ops, scanner.Err()
}

func main() {
	modelName := flag.String("model", "", "kv, register, rangeset, stack or queue")
	flag.Parse()
	models := map[string]porcupine.Model{"kv": kvModel, "register": registerModel, "rangeset": rangeSetModel,
		"stack": sequenceModel("Push", "Pop", true), "queue": sequenceModel("Enqueue", "Dequeue", false)}
	model, ok := models[*modelName]
	if !ok {
		fmt.Fprintln(os.Stderr, "porcupine-check: -model kv|register|rangeset|stack|queue FILE...")
		os.Exit(2)
	}
	for _, path := range flag.Args() {
		ops, err := read(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "porcupine-check:", err)
			os.Exit(2)
		}
		verdict := "illegal"
		if porcupine.CheckOperations(model, ops) {
			verdict = "ok"
		}
		fmt.Printf("%s %s\n", filepath.Base(path), verdict)
	}
}
