dependencies {
    implementation(platform("io.jxds:jxds-bom:0.1.0-SNAPSHOT"))
    implementation("io.jxds:xds-balancer")
    implementation("io.jxds:xds-test-fixtures")
    implementation("io.grpc:grpc-netty-shaded:1.85.1")
    implementation("io.grpc:grpc-services:1.85.1")
    runtimeOnly("org.slf4j:slf4j-simple:2.0.17")
}
