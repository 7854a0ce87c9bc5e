"""The validator of policy.json and of its ZIP: a valid policy passes, and
every case of a table of malformed ones is refused with its message."""

import contextlib
import io
import json
import os
import stat
import subprocess
import sys
import unittest
import warnings
import zipfile

import tq_support
from tq import data, policy, policy_file


def minimal():
    """A valid policy: ask question 0; on yes guess animal 0; on no stop."""
    return {"schema": "ioai-2026-animal-policy-v1",
            "animals_sha256": data.ANIMALS_SHA256,
            "questions_sha256": data.QUESTIONS_SHA256,
            "root": 0,
            "nodes": [{"type": "ask", "question": 0, "yes": 1, "no": 2},
                      {"type": "guess", "animal": 0, "wrong": None},
                      {"type": "stop"}]}


def edited(change):
    """The minimal policy's JSON text after `change(policy)`."""
    value = minimal()
    change(value)
    return json.dumps(value)


def node(i, **fields):
    """A change that updates node i's fields (a value None deletes it)."""
    def change(value):
        for key, item in fields.items():
            if item is None:
                del value["nodes"][i][key]
            else:
                value["nodes"][i][key] = item
    return change


def top(**fields):
    def change(value):
        for key, item in fields.items():
            if item is None:
                del value[key]
            else:
                value[key] = item
    return change


VALID = json.dumps(minimal())
SEED_SHA = "87eb93cc5d2a238a38daaeb201c394db935153cc17b03a44a7642f0db9ff35dc"

# name, the text of policy.json, a fragment of the error it must get
JSON_CASES = [
    ("schema", edited(top(schema="ioai-2026-animal-policy-v2")),
     "$.schema: must be 'ioai-2026-animal-policy-v1', got 'ioai-2026-animal-policy-v2'"),
    ("animals_sha256", edited(top(animals_sha256=SEED_SHA)),
     "$.animals_sha256: '%s' is not the SHA-256 of the animal pool, '%s'"
     % (SEED_SHA, data.ANIMALS_SHA256)),
    ("questions_sha256_upper", edited(top(questions_sha256=data.QUESTIONS_SHA256.upper())),
     "$.questions_sha256: '%s' is not the SHA-256 of the question pool"
     % data.QUESTIONS_SHA256.upper()),
    ("missing_root", edited(top(root=None)), "$: missing key 'root' in the policy"),
    ("unknown_top_key", edited(top(comment="hi")), "$: unknown key 'comment' in the policy"),
    ("no_nodes", edited(top(nodes=[])), "$.nodes: must be a list of 1 to 32767 nodes, got 0"),
    ("too_many_nodes", edited(top(nodes=[{"type": "stop"}] * 32768)),
     "$.nodes: must be a list of 1 to 32767 nodes, got 32768 nodes"),
    ("nodes_object", edited(top(nodes={"0": {"type": "stop"}})), "got {'0': {'type': 'stop'}}"),
    ("root_out_of_range", edited(top(root=3)), "$.root: must be a node index in 0..2, got 3"),
    ("root_boolean", edited(top(root=False)), "$.root: must be a node index in 0..2, got False"),
    ("root_null", VALID.replace('"root": 0', '"root": null'), "$.root: must be a node index"),
    ("type_unknown", edited(node(1, type="Guess")),
     "$.nodes[1].type: must be one of 'ask', 'guess', 'stop', got 'Guess'"),
    ("type_missing", edited(node(2, type=None)), "$.nodes[2]: missing key 'type' in a node"),
    ("type_number", edited(node(2, type=3)), "$.nodes[2].type: must be one of"),
    ("ask_extra_key", edited(node(0, wrong=2)), "$.nodes[0]: unknown key 'wrong' in an ask node"),
    ("ask_missing_edge", edited(node(0, no=None)), "$.nodes[0]: missing key 'no' in an ask node"),
    ("guess_missing_wrong", VALID.replace(', "wrong": null', ""),
     "$.nodes[1]: missing key 'wrong' in a guess node"),
    ("stop_extra_key", edited(node(2, next=0)), "$.nodes[2]: unknown key 'next' in a stop node"),
    ("question_out_of_range", edited(node(0, question=559)),
     "$.nodes[0].question: must be an integer in 0..558, got 559"),
    ("question_float", edited(node(0, question=1.0)), "$.nodes[0].question: must be an integer"
     " in 0..558, got 1.0"),
    ("question_boolean", edited(node(0, question=True)), "question: must be an integer in "
     "0..558, got True"),
    ("question_string", edited(node(0, question="0")), "got '0'"),
    ("animal_out_of_range", edited(node(1, animal=1472)),
     "$.nodes[1].animal: must be an integer in 0..1471, got 1472"),
    ("animal_negative", edited(node(1, animal=-1)), "$.nodes[1].animal: must be an integer"),
    ("animal_null", edited(node(1, animal=0)).replace('"animal": 0', '"animal": null'),
     "$.nodes[1].animal: must be an integer in 0..1471, got None"),
    ("edge_missing_node", edited(node(0, yes=3)),
     "$.nodes[0].yes: must be null or a node index in 0..2, got 3"),
    ("edge_negative", edited(node(1, wrong=-1)), "$.nodes[1].wrong: must be null or a node"),
    ("edge_string", edited(node(0, no="2")), "$.nodes[0].no: must be null or a node index"
     " in 0..2, got '2'"),
    ("edge_float", VALID.replace('"yes": 1', '"yes": 1.0'), "$.nodes[0].yes: must be null or a"
     " node index in 0..2, got 1.0"),
    ("edge_exponent", VALID.replace('"yes": 1', '"yes": 1e0'), "got 1.0"),
    ("edge_huge", VALID.replace('"yes": 1', '"yes": 1e400'), "got inf"),
    ("edge_nan", VALID.replace('"yes": 1', '"yes": NaN'),
     "$.nodes[0].yes: NaN is not a JSON number"),
    ("edge_infinity", VALID.replace('"no": 2', '"no": -Infinity'),
     "$.nodes[0].no: -Infinity is not a JSON number"),
    ("duplicate_edge", VALID.replace('"yes": 1', '"yes": 1, "yes": 2'),
     "$.nodes[0]: the key 'yes' appears twice"),
    ("duplicate_root", VALID.replace('"root": 0', '"root": 0, "root": 0'),
     "$: the key 'root' appears twice"),
    ("node_list", edited(top(nodes=[["stop"]])), "$.nodes[0]: a node must be a JSON object"),
    ("top_list", json.dumps([minimal()]), "$: the policy must be a JSON object, got [{"),
    ("not_json", VALID[:-1], "$: not valid JSON"),
    ("extra_data", VALID + " {}", "$: not valid JSON: Extra data"),
    ("empty", "", "$: not valid JSON"),
    ("bom", "\ufeff" + VALID, "byte-order mark"),
]
# the bytes of policy.json that are not UTF-8
BYTE_CASES = [("latin1", VALID.replace("v1", "v1\xe9").encode("latin-1"),
               "$: not UTF-8: byte 38 is b'\\xe9'")]


def zip_of(*entries):
    """A ZIP's bytes from (name or ZipInfo, bytes) entries, in order."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # a name written twice warns
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, blob in entries:
                archive.writestr(name, blob)
    return buffer.getvalue()


def entry(name, mode):
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.external_attr = mode << 16
    return info


def encrypted(blob):
    """`blob`, a ZIP of one file, with the file marked encrypted (bit 0 of
    its flags, in its local header and in the central directory)."""
    blob = bytearray(blob)
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = blob.index(signature) + offset
        blob[at] |= 0x1
    return bytes(blob)


GOOD = VALID.encode("utf-8")
ZIP_CASES = [
    ("not_a_zip", GOOD, "archive: not a ZIP archive"),
    ("empty_zip", zip_of(), "archive: it is empty; it must hold policy.json"),
    ("extra_file", zip_of(("policy.json", GOOD), ("README.txt", b"hi")),
     "archive: it holds 'README.txt'; it must hold policy.json and nothing else"),
    ("other_name", zip_of(("Policy.json", GOOD)), "it holds 'Policy.json'"),
    ("in_a_folder", zip_of(("out/policy.json", GOOD)),
     "archive: 'out/policy.json' is not at the archive's root"),
    ("folder_entry", zip_of(("policy.json", GOOD), ("out/", b"")),
     "archive: it holds a folder, 'out/'"),
    ("folder_mode", zip_of(("policy.json", GOOD), (entry("out", stat.S_IFDIR | 0o755), b"")),
     "archive: it holds a folder, 'out'"),
    ("symlink", zip_of((entry("policy.json", stat.S_IFLNK | 0o777), b"/etc/passwd")),
     "archive: 'policy.json' is a symbolic link"),
    ("fifo", zip_of((entry("policy.json", stat.S_IFIFO | 0o644), GOOD)),
     "archive: 'policy.json' is not a regular file"),
    ("twice", zip_of(("policy.json", GOOD), ("policy.json", GOOD)),
     "archive: it holds 'policy.json' 2 times"),
    ("backslash", zip_of(("out\\policy.json", GOOD)), "is not at the archive's root"),
    ("encrypted", encrypted(zip_of(("policy.json", GOOD))), "archive: policy.json is encrypted"),
    ("bad_inside", zip_of(("policy.json", VALID.replace('"root": 0', '"root": 7').encode())),
     "$.root: must be a node index in 0..2, got 7"),
]


class ValidatorTest(unittest.TestCase):
    def write(self, name, blob):
        path = os.path.join(tq_support.tmpdir(self), name)
        with open(path, "wb") as f:
            f.write(blob)
        return path

    def test_valid_policies(self):
        self.assertEqual(policy_file.load(self.write("policy.json", GOOD)), minimal())
        self.assertEqual(policy_file.load(self.write("p.zip", zip_of(("policy.json", GOOD)))),
                         minimal())
        pretty = json.dumps(minimal(), indent=2).encode()
        self.assertEqual(policy_file.load(self.write("policy.json", pretty)), minimal())
        largest = minimal()
        largest["nodes"] = [{"type": "stop"}] * 32767
        largest["root"] = 32766
        self.assertEqual(len(policy_file.check(largest)["nodes"]), 32767)

    def test_the_table_is_refused(self):
        cases = ([(name, "policy.json", text.encode("utf-8"), words)
                  for name, text, words in JSON_CASES] +
                 [(name, "policy.json", blob, words) for name, blob, words in BYTE_CASES] +
                 [(name, "submission.zip", blob, words) for name, blob, words in ZIP_CASES])
        self.assertGreaterEqual(len(cases), 20)
        tq_support.show("\nvalidator table: %d malformed cases" % len(cases))
        for name, file_name, blob, words in cases:
            with self.subTest(case=name):
                path = self.write(file_name, blob)
                with self.assertRaises(policy_file.PolicyError) as caught:
                    policy_file.load(path)
                self.assertIn(words, str(caught.exception))
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    self.assertEqual(policy.main(["validate", path]), 1)
                self.assertTrue(out.getvalue().startswith("invalid: "), out.getvalue())
                self.assertIn(words, out.getvalue())

    def test_write_is_deterministic_and_loads_back(self):
        folder = tq_support.tmpdir(self)
        blobs = []
        for name in ("a.zip", "b.zip", "c.json"):
            path = os.path.join(folder, name)
            policy_file.write(path, minimal())
            self.assertEqual(policy_file.load(path), minimal())
            with open(path, "rb") as f:
                blobs.append(f.read())
        self.assertEqual(blobs[0], blobs[1])
        with zipfile.ZipFile(io.BytesIO(blobs[0])) as archive:
            self.assertEqual(archive.namelist(), ["policy.json"])
            self.assertEqual(archive.read("policy.json"), blobs[2])

    def test_command(self):
        good = self.write("submission.zip", zip_of(("policy.json", GOOD)))
        bad = self.write("policy.json", VALID.replace('"yes": 1', '"yes": 9').encode())
        for path, status, words in ((good, 0, "valid: 3 nodes"),
                                    (bad, 1, "invalid: $.nodes[0].yes: must be null or")):
            with self.subTest(path=path):
                done = subprocess.run([sys.executable, tq_support.POLICY_COMMAND, "validate",
                                       path], capture_output=True, text=True, timeout=60)
                self.assertEqual(done.returncode, status, done.stderr)
                self.assertIn(words, done.stdout)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(policy.main(["validate", good + ".missing"]), 2)
        self.assertIn("No such file", err.getvalue())


if __name__ == "__main__":
    unittest.main()
