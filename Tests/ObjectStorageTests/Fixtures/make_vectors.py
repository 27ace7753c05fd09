#!/usr/bin/env python3
"""Produce SigV4 test vectors with botocore, the reference implementation, for the ObjectStorage tests.

Run from anywhere:  python3 Tests/ObjectStorageTests/Fixtures/make_vectors.py
It rewrites botocore_vectors.json next to this script. Everything is deterministic: fixed credentials and a
frozen clock (botocore's own get_current_datetime is patched), so re-running with the same botocore version
produces the same file byte for byte. CI pins the version: pip install botocore==<version recorded below>.

Vector kinds:
  post   -- presigned POST forms from client.generate_presigned_post: botocore's exact policy string and fields.
  query  -- presigned URLs (GET with response overrides, HEAD, PUT with signed Content-Type / Content-Length)
            plus botocore's canonical request and string to sign, captured while it signed.
  header -- Authorization-header signing (HEAD, GET with Range, PUT with UNSIGNED-PAYLOAD, DELETE, HeadBucket)
            with canonical request, string to sign and every header botocore added.
"local" vectors target the embedded store (http://localhost:8080/storage/{bucket}/...), so the Swift tests can
replay them against the store over HTTP; the others target S3 hosts and are checked at the verifier level.
"""
import datetime
import json
import os
import sys
from unittest import mock
from urllib.parse import quote, urlsplit

import botocore
import botocore.auth
import botocore.session
import botocore.signers
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials

ACCESS_KEY = "HPLOCALDEMOKEY000001"
SECRET_KEY = "hpDemoSecret/Key+With=Symbols0123456789ab"
SESSION_TOKEN = "FwoGZXIvYXdzEJr//////////wEaDFakeSessionToken+/=="
LOCAL_ENDPOINT = "http://localhost:8080/storage"
HELPPET_BUCKET = "helppetai-visit-recordings"
AUTODETAIL_BUCKET = "autodetail"
MAIN_TIME = datetime.datetime(2025, 1, 15, 17, 12, 4)
LEAP_TIME = datetime.datetime(2024, 2, 29, 23, 59, 59)

HELPPET_KEY = ("visit-recordings/2025/01/15/pet-d3000000-0000-4000-8000-000000000001/"
               "6a1f4c2e-8b3d-4e5f-a6b7-c8d9e0f1a2b3-1.m4a")
PHOTO_KEY = ("appointments/f1fdd51b-a45e-4960-8a19-25ab21d3a1d6/defect/"
             "e1e07027-6174-456a-b7b6-e95a99a1b6ed.jpg")
ODD_KEY = "visit-recordings/a b/c+d=\u00e9~(1)!*'.m4a"


class Capture:
    """Records the canonical request and string to sign botocore computes while presigning."""

    def __init__(self):
        self.canonical_request = None
        self.string_to_sign = None

    def __enter__(self):
        original_cr = botocore.auth.SigV4Auth.canonical_request
        original_sts = botocore.auth.SigV4Auth.string_to_sign
        capture = self

        def canonical_request(auth, request):
            capture.canonical_request = original_cr(auth, request)
            return capture.canonical_request

        def string_to_sign(auth, request, canonical):
            capture.string_to_sign = original_sts(auth, request, canonical)
            return capture.string_to_sign

        self._patches = [
            mock.patch.object(botocore.auth.SigV4Auth, "canonical_request", canonical_request),
            mock.patch.object(botocore.auth.SigV4Auth, "string_to_sign", string_to_sign),
        ]
        for p in self._patches:
            p.start()
        return self

    def __exit__(self, *exc):
        for p in self._patches:
            p.stop()


def frozen(moment):
    """Freeze botocore's clock (both modules import get_current_datetime by name)."""
    return [
        mock.patch.object(botocore.auth, "get_current_datetime", return_value=moment),
        mock.patch.object(botocore.signers, "get_current_datetime", return_value=moment),
    ]


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def client(region, endpoint=None, style="path", token=None):
    session = botocore.session.get_session()
    return session.create_client(
        "s3", region_name=region, endpoint_url=endpoint,
        aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY, aws_session_token=token,
        config=Config(signature_version="s3v4", s3={"addressing_style": style}))


def run_frozen(moment, fn):
    patches = frozen(moment)
    for p in patches:
        p.start()
    try:
        return fn()
    finally:
        for p in patches:
            p.stop()


def post_vector(name, moment, region, bucket, key, content_type, length_range, local,
                endpoint=None, style="path", token=None, extra_fields=None, extra_conditions=None,
                valid_size=None):
    c = client(region, endpoint or LOCAL_ENDPOINT, style, token)
    fields = {"Content-Type": content_type}
    fields.update(extra_fields or {})
    conditions = [{"Content-Type": content_type}, ["content-length-range", length_range[0], length_range[1]]]
    conditions += extra_conditions or []
    result = run_frozen(moment, lambda: c.generate_presigned_post(
        bucket, key, Fields=fields, Conditions=conditions, ExpiresIn=3600))
    ordered = list(result["fields"].items())
    import base64
    return {
        "name": name, "kind": "post", "local": local, "signing_time": iso(moment), "region": region,
        "session_token": token, "bucket": bucket, "key": key, "url": result["url"],
        "fields": [{"name": k, "value": v} for k, v in ordered],
        "policy_json": base64.b64decode(result["fields"]["policy"]).decode("utf-8"),
        "content_length_range": list(length_range),
        "valid_size": valid_size if valid_size is not None else length_range[0],
        "expires_in": 3600,
    }


def query_vector(name, moment, region, method, client_method, bucket, key, expires, local,
                 params=None, endpoint=None, style="path", token=None, send_headers=None):
    c = client(region, endpoint or LOCAL_ENDPOINT, style, token)
    api_params = {"Bucket": bucket, "Key": key}
    api_params.update(params or {})
    with Capture() as cap:
        url = run_frozen(moment, lambda: c.generate_presigned_url(
            client_method, Params=api_params, ExpiresIn=expires, HttpMethod=method))
    parts = urlsplit(url)
    host = parts.netloc
    return {
        "name": name, "kind": "query", "local": local, "signing_time": iso(moment), "region": region,
        "session_token": token, "method": method, "bucket": bucket, "key": key, "url": url,
        "scheme": parts.scheme, "host": host, "path": parts.path, "raw_query": parts.query,
        "expires_in": expires, "overrides": {k: v for k, v in (params or {}).items() if k.startswith("Response")},
        "headers": send_headers or {},
        "canonical_request": cap.canonical_request, "string_to_sign": cap.string_to_sign,
        "signature": parts.query.rsplit("X-Amz-Signature=", 1)[1],
    }


def header_vector(name, moment, region, method, url, headers=None, token=None, unsigned_payload=True):
    credentials = Credentials(ACCESS_KEY, SECRET_KEY, token)
    auth = botocore.auth.S3SigV4Auth(credentials, "s3", region)
    request = AWSRequest(method=method, url=url, headers=dict(headers or {}))
    request.context["client_config"] = Config(s3={"payload_signing_enabled": not unsigned_payload})
    with Capture() as cap:
        run_frozen(moment, lambda: auth.add_auth(request))
    parts = urlsplit(url)
    return {
        "name": name, "kind": "header", "signing_time": iso(moment), "region": region, "session_token": token,
        "method": method, "url": url, "host": parts.netloc, "path": parts.path, "raw_query": parts.query,
        "request_headers": dict(headers or {}),
        "payload_hash": request.headers["X-Amz-Content-SHA256"],
        "signed_headers": {k: v for k, v in request.headers.items()},
        "canonical_request": cap.canonical_request, "string_to_sign": cap.string_to_sign,
        "authorization": request.headers["Authorization"],
    }


def s3_url(bucket, region, key):
    return f"https://{bucket}.s3.{region}.amazonaws.com/{quote(key, safe='/~')}"


def main():
    vectors = []
    vectors.append(post_vector(
        "post-local-helppet", MAIN_TIME, "us-east-1", HELPPET_BUCKET, HELPPET_KEY, "audio/m4a",
        (1, 104857600), True, valid_size=2048))
    vectors.append(post_vector(
        "post-local-small-range", LEAP_TIME, "us-east-1", HELPPET_BUCKET, "uploads/small range.bin",
        "application/octet-stream", (4, 16), True, valid_size=16))
    vectors.append(post_vector(
        "post-local-autodetail-extra-fields", MAIN_TIME, "us-east-1", AUTODETAIL_BUCKET, PHOTO_KEY, "image/jpeg",
        (1, 15728640), True, extra_fields={"x-amz-meta-origin": "botocore"},
        extra_conditions=[{"x-amz-meta-origin": "botocore"}, ["starts-with", "$key", "appointments/"]],
        valid_size=100))
    vectors.append(post_vector(
        "post-s3-virtual-session-token", MAIN_TIME, "eu-central-1", "helppet-prod-recordings",
        "photos/\u00dcn\u00efcode name (1).jpg", "image/jpeg", (1, 5242880), False,
        endpoint="https://s3.eu-central-1.amazonaws.com", style="virtual", token=SESSION_TOKEN,
        extra_fields={"success_action_status": "204"},
        extra_conditions=[{"success_action_status": "204"}], valid_size=10))

    vectors.append(query_vector(
        "get-local-playback", MAIN_TIME, "us-east-1", "GET", "get_object", HELPPET_BUCKET, HELPPET_KEY, 900, True,
        params={"ResponseContentType": "audio/mp4",
                "ResponseContentDisposition": 'inline; filename="appointment_840e37f2_pet_bella_20250115_091204.m4a"'}))
    vectors.append(query_vector(
        "get-local-odd-key-utf8-disposition", LEAP_TIME, "us-east-1", "GET", "get_object", HELPPET_BUCKET, ODD_KEY,
        3600, True,
        params={"ResponseContentType": "audio/mpeg",
                "ResponseContentDisposition": "inline; filename=\"B_lla's recording.m4a\"; "
                                              "filename*=UTF-8''B%C3%A9lla%27s%20recording.m4a"}))
    vectors.append(query_vector(
        "head-local", MAIN_TIME, "us-east-1", "HEAD", "head_object", HELPPET_BUCKET, HELPPET_KEY, 900, True))
    vectors.append(query_vector(
        "put-local-content-type", MAIN_TIME, "us-east-1", "PUT", "put_object", AUTODETAIL_BUCKET, PHOTO_KEY, 900, True,
        params={"ContentType": "image/jpeg"}, send_headers={"Content-Type": "image/jpeg"}))
    vectors.append(query_vector(
        "put-local-content-type-and-length", MAIN_TIME, "us-east-1", "PUT", "put_object", AUTODETAIL_BUCKET,
        PHOTO_KEY.replace("e1e07027", "e2e07027"), 900, True,
        params={"ContentType": "image/png", "ContentLength": 16},
        send_headers={"Content-Type": "image/png", "Content-Length": "16"}))
    vectors.append(query_vector(
        "get-s3-virtual-session-token", MAIN_TIME, "eu-central-1", "GET", "get_object", "helppet-prod-recordings",
        ODD_KEY, 3600, False, endpoint="https://s3.eu-central-1.amazonaws.com", style="virtual", token=SESSION_TOKEN,
        params={"ResponseContentType": "audio/mp4", "ResponseContentDisposition": 'inline; filename="a.m4a"'}))
    vectors.append(query_vector(
        "put-s3-path-style-endpoint-port", MAIN_TIME, "us-east-1", "PUT", "put_object", "autodetail", PHOTO_KEY, 900,
        False, endpoint="http://127.0.0.1:9000", style="path", params={"ContentType": "image/heic"},
        send_headers={"Content-Type": "image/heic"}))

    bucket, region = "helppet-prod-recordings", "eu-central-1"
    vectors.append(header_vector("header-head-object", MAIN_TIME, region, "HEAD", s3_url(bucket, region, HELPPET_KEY)))
    vectors.append(header_vector(
        "header-get-range-session-token", MAIN_TIME, region, "GET", s3_url(bucket, region, ODD_KEY),
        headers={"Range": "bytes=0-1023"}, token=SESSION_TOKEN))
    vectors.append(header_vector(
        "header-put-unsigned-payload", LEAP_TIME, region, "PUT", s3_url(bucket, region, HELPPET_KEY),
        headers={"Content-Type": "audio/m4a"}))
    vectors.append(header_vector("header-delete-object", MAIN_TIME, region, "DELETE", s3_url(bucket, region, ODD_KEY)))
    vectors.append(header_vector(
        "header-head-bucket-path-style-empty-payload", MAIN_TIME, "us-east-1", "HEAD",
        "http://127.0.0.1:9000/autodetail", unsigned_payload=False))

    document = {
        "generated_by": "Tests/ObjectStorageTests/Fixtures/make_vectors.py",
        "botocore_version": botocore.__version__,
        "python_version": sys.version.split()[0],
        "access_key_id": ACCESS_KEY,
        "secret_access_key": SECRET_KEY,
        "vectors": vectors,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "botocore_vectors.json")
    with open(path, "w", encoding="utf-8") as out:
        json.dump(document, out, indent=2, ensure_ascii=True)
        out.write("\n")
    print(f"wrote {len(vectors)} vectors to {path} (botocore {botocore.__version__})")


if __name__ == "__main__":
    main()
