import Foundation
import Testing
@testable import ObjectStorage

@Suite struct SmallRulesTests {
    @Test func byteRanges() {
        #expect(ByteRangeRequest.resolve(header: nil, size: 10) == .whole)
        #expect(ByteRangeRequest.resolve(header: "bytes=0-4", size: 10) == .partial(0...4))
        #expect(ByteRangeRequest.resolve(header: "bytes=5-", size: 10) == .partial(5...9))
        #expect(ByteRangeRequest.resolve(header: "bytes=-3", size: 10) == .partial(7...9))
        #expect(ByteRangeRequest.resolve(header: "bytes=-30", size: 10) == .partial(0...9))
        #expect(ByteRangeRequest.resolve(header: "bytes=8-100", size: 10) == .partial(8...9))
        #expect(ByteRangeRequest.resolve(header: "bytes=10-", size: 10) == .unsatisfiable)
        #expect(ByteRangeRequest.resolve(header: "bytes=10-12", size: 10) == .unsatisfiable)
        #expect(ByteRangeRequest.resolve(header: "bytes=-0", size: 10) == .unsatisfiable)
        #expect(ByteRangeRequest.resolve(header: "bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRangeRequest.resolve(header: "bytes=0-1,3-4", size: 10) == .whole)
        #expect(ByteRangeRequest.resolve(header: "bytes=4-2", size: 10) == .whole)
        #expect(ByteRangeRequest.resolve(header: "items=0-1", size: 10) == .whole)
        #expect(ByteRangeRequest.resolve(header: "bytes=a-b", size: 10) == .whole)
    }

    @Test func objectKeys() {
        for good in ["a", "a/b.m4a", "visit-recordings/2025/01/15/pet-x/y-1.m4a", "a b/c+d=é~.m4a", "...x", "a/.b"] {
            #expect(ObjectKeyRules.validate(good) == nil, "\(good)")
        }
        for bad in ["", "/a", "a/", "a//b", ".", "..", "a/../b", "a/./b", "./a", "a\\b", "a\u{0}b", String(repeating: "x", count: 1025)] {
            #expect(ObjectKeyRules.validate(bad) != nil, "\(bad)")
        }
        let layout = LocalObjectLayout(rootDirectory: URL(fileURLWithPath: "/srv/objects/"))
        #expect(layout.dataPath(bucket: "b", key: "a/c.m4a") == "/srv/objects/b/a/c.m4a")
        #expect(layout.dataPath(bucket: "b", key: "a/../../etc/passwd") == nil)
        #expect(layout.metaPath(bucket: "b", key: "a/c.m4a") == "/srv/objects/.meta/b/a/c.m4a")
    }

    @Test func bucketNames() {
        #expect(LocalBucket.isValidName("helppetai-visit-recordings"))
        #expect(LocalBucket.isValidName("autodetail"))
        for bad in ["ab", ".tmp", ".meta", "Upper", "a..b", "-a-", "a_b", String(repeating: "a", count: 64)] {
            #expect(!LocalBucket.isValidName(bad), "\(bad)")
        }
    }

    @Test func dates() {
        let date = AmzDate.parseTimestamp("20240229T235959Z")!
        #expect(AmzDate.timestamp(date) == "20240229T235959Z")
        #expect(AmzDate.day(date) == "20240229")
        #expect(AmzDate.iso8601(date.addingTimeInterval(3600)) == "2024-03-01T00:59:59Z")
        #expect(AmzDate.parseTimestamp("20230229T000000Z") == nil)
        #expect(AmzDate.parseTimestamp("2024-02-29T23:59:59Z") == nil)
        #expect(AmzDate.parseISO8601("2015-12-30T12:00:00.000Z") == AmzDate.parseTimestamp("20151230T120000Z"))
        #expect(AmzDate.parseISO8601("2015-12-30T12:00:00.Z") == nil)
        #expect(HTTPDate.format(AmzDate.parseTimestamp("20250115T171204Z")!) == "Wed, 15 Jan 2025 17:12:04 GMT")
        #expect(HTTPDate.parse("Wed, 15 Jan 2025 17:12:04 GMT") == AmzDate.parseTimestamp("20250115T171204Z"))
    }

    @Test func uriEncoding() {
        #expect(AWSURIEncoding.encode("a b/c+d=é~(1)!*'", keepSlash: true) == "a%20b/c%2Bd%3D%C3%A9~%281%29%21%2A%27")
        #expect(AWSURIEncoding.encode("a/b", keepSlash: false) == "a%2Fb")
        #expect(AWSURIEncoding.decode("a%20b%2Fc+d") == "a b/c+d")
        #expect(AWSURIEncoding.decode("bad%2") == nil)
        #expect(AWSURIEncoding.decode("bad%ZZ") == nil)
        #expect(AWSURIEncoding.decode("%FF") == nil)
    }

    @Test func s3Addressing() {
        let regional = S3Addressing(region: "eu-central-1", endpoint: nil, forcePathStyle: false)
        #expect(regional.uploadURL(bucket: "b1") == "https://b1.s3.eu-central-1.amazonaws.com/")
        #expect(regional.objectURL(bucket: "b1", key: "a b/c.m4a") == "https://b1.s3.eu-central-1.amazonaws.com/a%20b/c.m4a")
        let pathStyle = S3Addressing(region: "eu-central-1", endpoint: nil, forcePathStyle: true)
        #expect(pathStyle.uploadURL(bucket: "b1") == "https://s3.eu-central-1.amazonaws.com/b1/")
        #expect(pathStyle.objectURL(bucket: "b1", key: "k") == "https://s3.eu-central-1.amazonaws.com/b1/k")
        let endpoint = S3Addressing(region: "us-east-1", endpoint: URLOrigin("http://minio.local:9000"), forcePathStyle: false)
        #expect(endpoint.uploadURL(bucket: "b1") == "http://b1.minio.local:9000/")
        #expect(endpoint.objectURL(bucket: "b1", key: "k") == "http://b1.minio.local:9000/k")
        let endpointPath = S3Addressing(region: "us-east-1", endpoint: URLOrigin("https://storage.example.com/s3/"), forcePathStyle: true)
        #expect(endpointPath.uploadURL(bucket: "b1") == "https://storage.example.com/s3/b1/")
        #expect(endpointPath.objectURL(bucket: "b1", key: "k") == "https://storage.example.com/s3/b1/k")
        #expect(URLOrigin("https://example.com:443")?.host == "example.com")
        #expect(URLOrigin("http://example.com:8080")?.host == "example.com:8080")
        #expect(URLOrigin("ftp://example.com") == nil)
    }
}
