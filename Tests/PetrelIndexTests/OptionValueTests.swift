import Foundation
import Testing
@testable import PetrelIndex

@Suite("Option values")
struct OptionValueTests {
    @Test func byteSizes() {
        #expect(ByteSize.parse("1000") == 1000)
        #expect(ByteSize.parse("20M") == 20 << 20)
        #expect(ByteSize.parse("512k") == 512 << 10)
        #expect(ByteSize.parse("1G") == 1 << 30)
        #expect(ByteSize.parse("10MB") == 10 << 20)
        #expect(ByteSize.parse(" 1.5K ") == 1536)
        #expect(ByteSize.parse("2T") == 2 << 40)
        for invalid in ["", "10Q", "lots", "-5", "M", "1e3", "1 M", "1MiB", "inf", "nan"] {
            #expect(ByteSize.parse(invalid) == nil, "\(invalid)")
        }
        #expect(ByteSize.format(512) == "512 B")
        #expect(ByteSize.format(1536) == "1.5 KB")
        #expect(ByteSize.format(20 << 20) == "20.0 MB")
    }

    @Test func dates() throws {
        let now = Date(timeIntervalSince1970: 1_000_000_000)
        #expect(DateSpec.parse("7d", now: now) == now.addingTimeInterval(-7 * 86400))
        #expect(DateSpec.parse("12h", now: now) == now.addingTimeInterval(-12 * 3600))
        #expect(DateSpec.parse("2w", now: now) == now.addingTimeInterval(-14 * 86400))
        #expect(DateSpec.parse("30m", now: now) == now.addingTimeInterval(-1800))
        #expect(DateSpec.parse("45s", now: now) == now.addingTimeInterval(-45))
        #expect(DateSpec.parse("1y", now: now) == now.addingTimeInterval(-31_557_600))
        #expect(DateSpec.parse("2024-05-01") == Date(timeIntervalSince1970: 1_714_521_600))
        #expect(DateSpec.parse("2024-05-01T12:00:00Z") == Date(timeIntervalSince1970: 1_714_564_800))
        // Leap days where they exist; days a month lacks are not rolled
        // over into the next month.
        #expect(DateSpec.parse("2024-02-29") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(DateSpec.parse("1900-02-28") != nil)
        for invalid in ["yesterday", "", "7x", "d", "-3d", "2024-13-01", "2024/05/01", "2024-02-30", "2023-02-29", "1900-02-29", "2024-04-31", "2024-00-10", "2024-05-00"] {
            #expect(DateSpec.parse(invalid, now: now) == nil, "\(invalid)")
        }
    }

    @Test func fieldWeights() {
        #expect(FieldWeights(parsing: "path=2,title=4,body=1") == FieldWeights())
        #expect(FieldWeights(parsing: "title=10") == FieldWeights(path: 2, title: 10, body: 1))
        #expect(FieldWeights(parsing: " body = 0.5 , path=0") == FieldWeights(path: 0, title: 4, body: 0.5))
        for invalid in ["title", "title=x", "author=1", "title=-1", "title=inf"] {
            #expect(FieldWeights(parsing: invalid) == nil, "\(invalid)")
        }
    }
}
