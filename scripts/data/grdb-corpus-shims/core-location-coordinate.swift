// Stand-in for CoreLocation's coordinate type, which Linux lacks: the corpus staging adds it to sources that
// keep a latitude and a longitude in one (their `import CoreLocation` is dropped).
struct CLLocationCoordinate2D: Sendable {
    var latitude: Double
    var longitude: Double

    init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

func CLLocationCoordinate2DMake(_ latitude: Double, _ longitude: Double) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}
