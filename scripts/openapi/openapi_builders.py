"""Building blocks shared by the OpenAPI generators in this folder.

generate_helppet.py and generate_autodetail.py each describe one product; this module holds what they do the same
way: schema, parameter and response builders, the `Paths` collector, deterministic rendering and the command line
(`--check`, `--stdout`, write). Where the two documents differ in convention (which headers every response carries,
whether a request body is required, the order of implied `required` lists, whether every operation must declare its
security), the builder takes a parameter; a script that needs a non-default value binds it once (`functools.partial`
for `obj`, `json_response`, `json_body`; `Paths(require_security=True)`) rather than at each call. Helpers that only
one product uses stay in that product's script.

Python 3.11 standard library only. A change here can alter both committed documents: run both generators with
`--check` afterwards.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

JSON = "application/json"

# ---------------------------------------------------------------------------------------------------------------------
# Schema helpers
# ---------------------------------------------------------------------------------------------------------------------


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict) -> dict:
    """`schema` or JSON null: `type: [..., "null"]` for plain types, `anyOf` for references."""
    if "$ref" in schema:
        return {"anyOf": [schema, {"type": "null"}]}
    result = dict(schema)
    types = result["type"] if isinstance(result["type"], list) else [result["type"]]
    result["type"] = types + ["null"]
    if "enum" in result:
        result["enum"] = result["enum"] + [None]
    return result


def with_description(schema: dict, description: str | None) -> dict:
    if description is None:
        return schema
    if "$ref" in schema:
        # Siblings of $ref are allowed in 3.1, but a wrapper keeps the referenced schema untouched.
        return {"allOf": [schema], "description": description}
    return {**schema, "description": description}


def string(min_length: int | None = None, max_length: int | None = None, *, pattern: str | None = None,
           fmt: str | None = None, enum: list[str] | None = None, default: str | None = None,
           description: str | None = None) -> dict:
    schema: dict = {"type": "string"}
    if min_length is not None:
        schema["minLength"] = min_length
    if max_length is not None:
        schema["maxLength"] = max_length
    if pattern is not None:
        schema["pattern"] = pattern
    if fmt is not None:
        schema["format"] = fmt
    if enum is not None:
        schema["enum"] = enum
    if default is not None:
        schema["default"] = default
    return with_description(schema, description)


def integer(minimum: int | None = None, maximum: int | None = None, *, multiple_of: int | None = None,
            default: int | None = None, description: str | None = None) -> dict:
    schema: dict = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    if multiple_of is not None:
        schema["multipleOf"] = multiple_of
    if default is not None:
        schema["default"] = default
    return with_description(schema, description)


def boolean(default: bool | None = None, description: str | None = None) -> dict:
    schema: dict = {"type": "boolean"}
    if default is not None:
        schema["default"] = default
    return with_description(schema, description)


def array(items: dict, *, min_items: int | None = None, max_items: int | None = None, unique: bool = False,
          description: str | None = None) -> dict:
    schema: dict = {"type": "array", "items": items}
    if min_items is not None:
        schema["minItems"] = min_items
    if max_items is not None:
        schema["maxItems"] = max_items
    if unique:
        schema["uniqueItems"] = True
    return with_description(schema, description)


UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"


def uuid(description: str | None = None) -> dict:
    """A UUID in canonical form (hex digits in any case on input, lowercase on output). The pattern says what
    `format: uuid` leaves to the validator (not every one asserts formats): no braces, no `urn:uuid:`, not empty."""
    return string(fmt="uuid", pattern=UUID_PATTERN, description=description)


def timestamp(description: str | None = None) -> dict:
    """A datetime the server emits: UTC, whole seconds, literal Z (HelpPet §1.6; AutoDetail calls it an instant, §1.3).

    What clients may send differs per product, so the input variants live in the scripts.
    """
    return string(fmt="date-time", pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$", description=description)


def date(description: str | None = None) -> dict:
    return string(fmt="date", pattern=r"^\d{4}-\d{2}-\d{2}$", description=description)


def obj(properties: dict, required: list[str] | None = None, *, description: str | None = None,
        min_properties: int | None = None, sort_required: bool = True) -> dict:
    """An object schema. `required=None` means every property is required (responses: keys are never omitted).

    That implied list is sorted, or in the declaration order of `properties` with `sort_required=False`
    (AutoDetail's convention). It is a JSON array, so the order shows in the rendered document.
    """
    implied = sorted(properties) if sort_required else list(properties)
    schema: dict = {"type": "object", "properties": properties, "required": implied if required is None else required}
    if not schema["required"]:
        del schema["required"]
    if min_properties is not None:
        schema["minProperties"] = min_properties
    return with_description(schema, description)


# ---------------------------------------------------------------------------------------------------------------------
# Parameters and responses
# ---------------------------------------------------------------------------------------------------------------------


def path_param(name: str, description: str) -> dict:
    return {"name": name, "in": "path", "required": True, "description": description, "schema": uuid()}


def query(name: str, schema: dict, description: str | None = None, *, required: bool = False) -> dict:
    param = {"name": name, "in": "query", "required": required, "schema": schema}
    if description:
        param["description"] = description
    return param


# Both documents define the `limit` and `offset` parameter components (with their own descriptions and bounds).
PAGINATION = [{"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/offset"}]


def header_ref(name: str) -> dict:
    return {"$ref": f"#/components/headers/{name}"}


def json_response(description: str, schema: dict, *, headers: tuple[str, ...] = (),
                  standard_headers: tuple[str, ...] = ()) -> dict:
    """A JSON response. `standard_headers` are the ones every response of the document carries (bound per script);
    `headers` are the extra ones of this response."""
    return {
        "description": description,
        "headers": {name: header_ref(name) for name in (*standard_headers, *headers)},
        "content": {JSON: {"schema": schema}},
    }


def json_body(schema_name: str, *, required: bool = True, description: str | None = None) -> dict:
    body = {"required": required, "content": {JSON: {"schema": ref(schema_name)}}}
    if description:
        body["description"] = description
    return body


# ---------------------------------------------------------------------------------------------------------------------
# Operations
# ---------------------------------------------------------------------------------------------------------------------

PUBLIC: list = []  # `security: []`: no credential, overriding a document-wide requirement if there is one


class Paths:
    """Collects operations; several blocks may add methods to one path.

    With `require_security=True` every operation must pass `security`: for a document without a global requirement,
    an omitted one would silently make the operation public.
    """

    def __init__(self, *, require_security: bool = False) -> None:
        self.paths: dict = {}
        self.operation_ids: set[str] = set()
        self.require_security = require_security

    def add(self, method: str, path: str, operation_id: str, *, tag: str, summary: str, responses: dict,
            parameters: list | None = None, body: dict | None = None, description: str | None = None,
            security: list | None = None) -> None:
        assert operation_id not in self.operation_ids, f"duplicate operationId {operation_id}"
        assert security is not None or not self.require_security, f"{operation_id} does not declare its security"
        self.operation_ids.add(operation_id)
        operation: dict = {"operationId": operation_id, "tags": [tag], "summary": summary, "responses": responses}
        if description:
            operation["description"] = description
        if parameters:
            operation["parameters"] = parameters
        if body:
            operation["requestBody"] = body
        if security is not None:
            operation["security"] = security
        item = self.paths.setdefault(path, {})
        assert method not in item, f"{method.upper()} {path} described twice"
        item[method] = operation


# ---------------------------------------------------------------------------------------------------------------------
# Output and command line
# ---------------------------------------------------------------------------------------------------------------------


def render(document: dict) -> str:
    """Deterministic text: sorted keys, 2-space indent, UTF-8 as is, trailing newline."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(build: Callable[[argparse.Namespace], dict], output: Path, *, script: str, doc: str | None,
         add_arguments: Callable[[argparse.ArgumentParser], None] | None = None) -> int:
    """The generators' command line: write `output`, or `--check` it is up to date, or print to `--stdout`.

    `build` receives the parsed arguments, so a script can add its own options with `add_arguments`. `script`
    (the caller's `__file__`) names the command to run in the out-of-date message; `doc` is the `--help` text.
    Returns the exit status.
    """
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if the committed document is not up to date")
    parser.add_argument("--stdout", action="store_true", help="print the document instead of writing it")
    if add_arguments is not None:
        add_arguments(parser)
    args = parser.parse_args()

    text = render(build(args))
    if args.stdout:
        sys.stdout.write(text)
    elif args.check:
        if not output.exists() or output.read_text(encoding="utf-8") != text:
            print(f"{output.relative_to(ROOT)} is out of date; run {Path(script).resolve().relative_to(ROOT)}",
                  file=sys.stderr)
            return 1
    else:
        output.write_text(text, encoding="utf-8")
        print(f"wrote {output.relative_to(ROOT)}")
    return 0
