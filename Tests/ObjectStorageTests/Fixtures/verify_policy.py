#!/usr/bin/env python3
"""Recompute a Swift-produced presigned POST signature with botocore, over Swift's exact policy bytes.

Usage: python3 verify_policy.py <request.json>
  request.json: {"secret_access_key": "...", "fields": {"key": "...", "policy": "...", "x-amz-signature": ..., ...},
                 "bucket": "..."}
Prints one JSON object: {"signature": <botocore's signature>, "matches": <bool>, "policy": <decoded policy>,
"problems": [...]} and exits 0 only when botocore's signature equals x-amz-signature, the policy is valid JSON
whose conditions name the bucket and every form field, and its x-amz-* conditions equal the fields.
Exit code 3 means botocore is not installed (the Swift test then skips with that message).
"""
import base64
import json
import sys

try:
    import botocore.auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
except ImportError:  # pragma: no cover - reported to the Swift test
    print(json.dumps({"error": "botocore is not installed"}))
    sys.exit(3)


def main(path):
    with open(path, encoding="utf-8") as handle:
        request = json.load(handle)
    fields = request["fields"]
    access_key, day, region, service, terminator = fields["x-amz-credential"].split("/")
    credentials = Credentials(access_key, request["secret_access_key"], fields.get("x-amz-security-token"))

    # botocore's own POST signer: SigV4 signing key for the credential scope, HMAC over the base64 policy.
    auth = botocore.auth.S3SigV4PostAuth(credentials, service, region)
    signing_request = AWSRequest(method="POST", url="https://example.invalid/")
    signing_request.context["timestamp"] = fields["x-amz-date"]
    signature = auth.signature(fields["policy"], signing_request)

    problems = []
    policy = json.loads(base64.b64decode(fields["policy"], validate=True).decode("utf-8"))
    if day != fields["x-amz-date"][:8]:
        problems.append("credential day differs from x-amz-date")
    named = {}
    for condition in policy["conditions"]:
        if isinstance(condition, dict):
            for name, value in condition.items():
                named[name.lower()] = value
        elif condition[0] in ("eq", "starts-with"):
            named[condition[1][1:].lower()] = condition[2]
    if named.get("bucket") != request["bucket"]:
        problems.append("policy does not name the bucket")
    for name, value in fields.items():
        lower = name.lower()
        if lower in ("policy", "x-amz-signature") or lower.startswith("x-ignore-"):
            continue
        if lower not in named:
            problems.append(f"field {name} not covered by the policy")
        elif lower.startswith("x-amz-") and named[lower] != value:
            problems.append(f"field {name} differs from its policy condition")
    result = {
        "signature": signature,
        "matches": signature == fields["x-amz-signature"],
        "policy": policy,
        "problems": problems,
    }
    print(json.dumps(result))
    return 0 if result["matches"] and not problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
